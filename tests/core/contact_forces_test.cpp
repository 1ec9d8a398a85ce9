// Forces in a fixed contact mode against the closed forms of a point mass on a table and on a slope,
// how the acceleration turns with a slip (against central differences), and the Painleve margin.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/contact_forces.hpp"
#include "tests/core/contact_fixtures.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(ContactForces, StickingOnATableCarriesTheWeight) {
  const Table t(0.5, 0.0);
  const ContactData d = t.at(Eigen::Vector3d::Zero());
  ModeForces f;
  ASSERT_TRUE(constrained_acceleration(t.contacts, 0.0, d.body, d.frames, d.jac, one(ContactMode::stick), f));
  EXPECT_NEAR(f.lambda_n(0), g, 1e-12);
  EXPECT_NEAR(f.lambda_t(0, 0), 0.0, 1e-12);
  EXPECT_LT(f.vdot.norm(), 1e-12);
}

TEST(ContactForces, SlidingFrictionIsMuTimesTheNormalForceAgainstTheSlip) {
  const Table t(0.5, 0.0);
  const ContactData d = t.at(Eigen::Vector3d(2, 0, 0));
  ModeForces f;
  ASSERT_TRUE(constrained_acceleration(t.contacts, 0.0, d.body, d.frames, d.jac, one(ContactMode::slide), f));
  EXPECT_NEAR(f.lambda_n(0), g, 1e-12);
  EXPECT_NEAR(f.lambda_t(0, 0), -0.5 * g, 1e-12);
  EXPECT_NEAR(f.vdot(0), -0.5 * g, 1e-12);
  EXPECT_NEAR(f.vdot(1), 0.0, 1e-12);
}

// The Painleve margin of a sliding contact is the normal acceleration a unit normal force buys,
// J_n M^-1 (J_n - mu s J_t)^T for a lone contact: with the contact below and ahead of the centre
// of mass, friction's torque opposes the normal push, and past mu = 1 / (x h) (x = 0.5 m ahead,
// h = 0.5 m below, unit mass and inertia: 1 + x (x - mu h) = 0 at mu = 5) the margin is negative.
TEST(ContactForces, PainleveMarginOfASlideIsItsEffectiveNormalInverseMass) {
  for (const double mu : {0.5, 4.0, 6.0}) {
    Model model = testing::single_body_model(JointType::planar, 1.0, Mat3::Identity(), Vec3(0, -g, 0));
    std::vector<Geometry> geometry(1);
    geometry[0].shape.type = ShapeType::halfspace;
    geometry[0].shape.normal = Vec3::UnitY();
    const ContactModel contacts(geometry, {{"c", 0, Vec3(0.5, -0.5, 0), 0.0, 0, mu, 0.0}}, true);
    ContactData d(model, contacts);
    const Eigen::Vector3d v(1, 0, 0);  // sliding towards +x
    compute_contact_data(model, contacts, Eigen::Vector3d::Zero(), v, {}, d);
    const Eigen::Vector2d s(d.jac.of(0)(1, 0) * v[0] > 0 ? 1.0 : -1.0, 0.0);
    ModeForces f;
    ASSERT_TRUE(constrained_acceleration(contacts, 0.0, d.body, d.frames, d.jac, one(ContactMode::slide, s), f));
    const Eigen::RowVectorXd Jn = d.jac.of(0).row(0), Jt = d.jac.of(0).row(1);
    const double expected = Jn.dot(d.body.M.inverse() * (Jn - mu * s[0] * Jt).transpose());
    Eigen::VectorXd x;
    EXPECT_NEAR(painleve_margin(f, 0, x), expected, 1e-12) << "mu " << mu;
    EXPECT_EQ(painleve_margin(f, 0, x) < 0, mu > 5) << "mu " << mu;
    ASSERT_TRUE(constrained_acceleration(contacts, 0.0, d.body, d.frames, d.jac, one(ContactMode::stick), f));
    EXPECT_EQ(painleve_margin(f, 0, x), std::numeric_limits<double>::infinity());  // symmetric: no Painleve
  }
}

// The force system's rows are cleared only where the previous mode wrote them (large models): one
// ModeForces taken through modes of other contacts, other row counts and the same row count with
// other contacts gives, bit for bit, what a fresh one gives.
TEST(ContactForces, ReusedScratchGivesTheForcesOfAFreshOne) {
  const RestingBodies r(22, {-0.5, 0.5}, 0.5);  // 66 velocities
  ASSERT_GE(r.model.nv, kBlockwiseFrom);
  const int m = r.contacts.size();
  auto mode_of = [&](int first, int last, ContactMode closed) {
    ContactModes modes = ContactModes::all_open(m);
    for (int i = first; i < last; ++i) modes.mode[i] = closed;
    return modes;
  };
  const std::vector<ContactModes> sequence{mode_of(0, m, ContactMode::stick), mode_of(0, m / 2, ContactMode::slide),
                                           mode_of(m / 2, m, ContactMode::slide), mode_of(0, m / 2, ContactMode::stick),
                                           mode_of(m / 2, m, ContactMode::stick), mode_of(0, m, ContactMode::stick)};
  ModeForces reused;
  for (size_t k = 0; k < sequence.size(); ++k) {
    ModeForces fresh;
    ASSERT_TRUE(r.forces(sequence[k], reused));
    ASSERT_TRUE(r.forces(sequence[k], fresh));
    EXPECT_EQ(reused.vdot, fresh.vdot) << "mode " << k;
    EXPECT_EQ(reused.lambda_n, fresh.lambda_n) << "mode " << k;
    EXPECT_EQ(reused.lambda_t, fresh.lambda_t) << "mode " << k;
    EXPECT_EQ(reused.scratch.Jc, fresh.scratch.Jc) << "mode " << k;
    bool frictional_slide = false;  // G is formed only then
    for (ContactMode mode : sequence[k].mode) frictional_slide = frictional_slide || mode == ContactMode::slide;
    if (frictional_slide) {
      EXPECT_EQ(reused.scratch.G, fresh.scratch.G) << "mode " << k;
    }
    // The touch lists read from the contacts' chain columns are those a scan of the rows finds.
    BlockRows scanned;
    Eigen::MatrixXd W;
    const Eigen::MatrixXd& F = frictional_slide ? fresh.scratch.G : fresh.scratch.Jc;
    block_delassus(r.data->body.M_llt, fresh.scratch.Jc, F, W, nullptr, &scanned);
    EXPECT_EQ(reused.scratch.touch.R, scanned.R) << "mode " << k;
    EXPECT_EQ(reused.scratch.touch.F, scanned.F) << "mode " << k;
    for (int b = 0; b < 22; ++b) {  // a held body's corners carry its weight; a free one's nothing
      const bool held = sequence[k].is_closed(2 * b);
      EXPECT_NEAR(fresh.lambda_n[2 * b] + fresh.lambda_n[2 * b + 1], held ? (1.0 + 0.1 * b) * g : 0.0, 1e-9)
          << "mode " << k << " body " << b;
    }
  }
}


// How the acceleration turns with each slip (the slip search's Jacobian) against central differences
// of the mode's forces, for each way the forces were solved: one box on four corners (normal rows
// of rank 3: the least-norm forces, whose derivative has a null-space part) and on three (full
// rank), eleven boxes (66 velocities) island by island, each island singular (the decomposition) or
// regular (LU). Slides from rest follow their slip exactly; slides slower than the blend speed turn
// with it as (u_t + blend s) / |u_t + blend s| does. A dented corner under drift correction leaves
// the least-norm forces a misfit (A lambda != target), which must not spoil the derivative.
void expect_turns_as_differences_say(int bodies, int corners, ModeForceScratch::Solver solver, bool singular,
                                     const Vec3& velocity, double slip_blend, double dent = 0.0) {
  SCOPED_TRACE(std::to_string(bodies) + " bodies on " + std::to_string(corners) + " corners, dent " +
               std::to_string(dent));
  const SlidingBoxes boxes(bodies, corners, velocity, slip_blend, dent, dent > 0 ? 20.0 : 0.0);
  ModeForces f;
  ASSERT_TRUE(boxes.forces(boxes.modes, f));
  using Solver = ModeForceScratch::Solver;
  const ModeForceScratch& w = f.scratch;
  if (bodies == 1) {
    ASSERT_EQ(w.solver, solver);
    if (solver == Solver::cod) {
      EXPECT_EQ(w.cod.rank() < w.A.rows(), singular);
    }
    const double misfit = (w.A * (w.lambda - w.reference) - w.target).norm();
    if (dent > 0) {
      EXPECT_GT(misfit, 1e-3);
    } else if (solver == Solver::cod) {
      EXPECT_LT(misfit, 1e-9);
    }
  } else {
    ASSERT_EQ(w.solver, Solver::islands);
    ASSERT_EQ(w.island_solver, std::vector<Solver>(static_cast<size_t>(bodies), solver));
    if (solver == Solver::cod) {
      EXPECT_EQ(w.island_cod[0].rank() < corners, singular);
    }
  }
  Eigen::VectorXd dvdot;
  for (int c = 0; c < boxes.contacts.size(); ++c) {
    ASSERT_TRUE(slip_turn_acceleration(boxes.contacts, boxes.data->body, boxes.data->jac, boxes.modes, c, f, dvdot));
    const Eigen::VectorXd expected = boxes.turned_by_differences(c);
    EXPECT_GT(expected.norm(), 1e-2) << c;  // the slip's turn moves the box
    EXPECT_LT((dvdot - expected).cwiseAbs().maxCoeff(), 1e-7 * (1 + expected.norm())) << c;
  }
  // A sticking contact has no slip to turn.
  ContactModes stuck = boxes.modes;
  stuck.mode[0] = ContactMode::stick;
  ASSERT_TRUE(boxes.forces(stuck, f));
  EXPECT_FALSE(slip_turn_acceleration(boxes.contacts, boxes.data->body, boxes.data->jac, stuck, 0, f, dvdot));
}

TEST(ContactForces, ASlipsTurnMovesTheAccelerationAsDifferencesSay) {
  using Solver = ModeForceScratch::Solver;
  const Vec3 rest = Vec3::Zero(), creeping(0.4e-6, 0.3e-6, 0);
  expect_turns_as_differences_say(1, 4, Solver::cod, true, rest, 0.0);
  expect_turns_as_differences_say(1, 3, Solver::cod, false, rest, 0.0);
  expect_turns_as_differences_say(11, 4, Solver::cod, true, rest, 0.0);
  expect_turns_as_differences_say(11, 3, Solver::lu, false, rest, 0.0);
  expect_turns_as_differences_say(1, 4, Solver::cod, true, creeping, 1e-6);
  expect_turns_as_differences_say(11, 3, Solver::lu, false, creeping, 1e-6);
  expect_turns_as_differences_say(1, 4, Solver::cod, true, rest, 0.0, 1e-4);
}

TEST(ContactForces, AnOpenContactLeavesFreeFall) {
  const Table t(0.5, 0.0);
  const ContactData d = t.at(Eigen::Vector3d::Zero());
  ModeForces f;
  ASSERT_TRUE(constrained_acceleration(t.contacts, 0.0, d.body, d.frames, d.jac, ContactModes::all_open(1), f));
  EXPECT_EQ(f.lambda_n(0), 0.0);
  EXPECT_NEAR(f.vdot(1), -g, 1e-12);
}

TEST(ContactForces, ClosedFlagsAndCounts) {
  ContactModes m = ContactModes::all_open(3);
  m.mode[1] = ContactMode::slide;
  std::vector<bool> closed;
  closed_flags(m, closed);
  EXPECT_EQ(closed, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(m.closed(), 1);
}

// The response to a generalized force added to a mode is the difference it makes to the mode's
// forces solved again with that force in the bias, to rounding, for each way the forces were
// solved: Eigen's LDL^T (a box pinned at one sticking corner), the decomposition (at two: singular,
// or sliding on four), island by island by the pivoted LDL^T (eleven boxes pinned at one corner or
// two), by LU (sliding on three) or the decomposition (on four). The closed rows' accelerations
// stay as they were. Returns the solver (the first island's where solved island by island).
ModeForceScratch::Solver expect_response_as_solved_again(int bodies, const std::vector<ContactMode>& corners) {
  SCOPED_TRACE(std::to_string(bodies) + " bodies on " + std::to_string(corners.size()) + " corners, first " +
               std::to_string(static_cast<int>(corners[0])));
  const int n = static_cast<int>(corners.size());
  const SlidingBoxes boxes(bodies, n, Vec3::Zero(), 0.0, 0.0, 0.0);
  ContactModes modes = boxes.modes;
  for (int c = 0; c < boxes.contacts.size(); ++c) modes.mode[c] = corners[c % n];
  ModeForces before, after;
  EXPECT_TRUE(boxes.forces(modes, before));
  Eigen::VectorXd f(boxes.model.nv);
  for (Eigen::Index k = 0; k < f.size(); ++k) f[k] = 10 * std::sin(1.0 + 0.7 * static_cast<double>(k));
  Eigen::VectorXd dvdot, dlambda;
  force_response(boxes.data->body, before, f, dvdot, dlambda);
  BodyDynamics pushed = boxes.data->body;
  pushed.C -= f;
  EXPECT_TRUE(constrained_acceleration(boxes.contacts, 0.0, pushed, boxes.data->frames, boxes.data->jac, modes, after));
  const Eigen::VectorXd expected = after.vdot - before.vdot;
  EXPECT_GT(expected.norm(), 0.1);  // the force moves the mode
  const Eigen::VectorXd expected_dlambda = after.scratch.lambda - before.scratch.lambda;
  EXPECT_LT((dlambda - expected_dlambda).cwiseAbs().maxCoeff(), 1e-9 * (1 + expected_dlambda.norm()));
  EXPECT_LT((dvdot - expected).cwiseAbs().maxCoeff(), 1e-9 * expected.norm());
  const Eigen::Index rows = before.scratch.A.rows();
  EXPECT_LT((before.scratch.Jc.topRows(rows) * dvdot).cwiseAbs().maxCoeff(), 1e-9 * expected.norm());
  const ModeForceScratch& w = before.scratch;
  return w.solver == ModeForceScratch::Solver::islands ? w.island_solver.at(0) : w.solver;
}

TEST(ContactForces, AForcesResponseIsTheDifferenceItMakesSolvedAgain) {
  using Solver = ModeForceScratch::Solver;
  using M = ContactMode;
  const std::vector<M> pinned{M::stick, M::open, M::open, M::open}, hinged{M::stick, M::stick, M::open, M::open};
  const std::vector<M> three(3, M::slide), four(4, M::slide);
  EXPECT_EQ(expect_response_as_solved_again(1, pinned), Solver::definite);
  EXPECT_EQ(expect_response_as_solved_again(1, hinged), Solver::cod);
  EXPECT_EQ(expect_response_as_solved_again(1, four), Solver::cod);
  EXPECT_EQ(expect_response_as_solved_again(11, pinned), Solver::definite);
  EXPECT_EQ(expect_response_as_solved_again(11, hinged), Solver::pivoted);
  EXPECT_EQ(expect_response_as_solved_again(11, three), Solver::lu);
  EXPECT_EQ(expect_response_as_solved_again(11, four), Solver::cod);
}

}  // namespace
}  // namespace impactsim
