// Forces in a fixed contact mode, and the mode choice by the acceleration LCP, against the closed
// forms of a point mass on a table and on a slope.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/contact_forces.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

constexpr double g = 9.81;

// A planar unit point mass (inertia 1) touching a table through its centre, the table's normal at
// `slope` radians from +y, with friction mu.
struct Table {
  Model model;
  ContactModel contacts;
  ContactSettings settings;
  Table(double mu, double slope) {
    model = testing::single_body_model(JointType::planar, 1.0, Mat3::Identity(), Vec3(0, -g, 0));
    std::vector<Geometry> geometry(1);
    geometry[0].name = "table";
    geometry[0].shape.type = ShapeType::halfspace;
    geometry[0].shape.normal = Vec3(-std::sin(slope), std::cos(slope), 0);
    contacts = ContactModel(geometry, {{"c", 0, Vec3::Zero(), 0.0, 0, mu, 0.0}}, true);
    settings.baumgarte = 0;  // on the surface at rest: no drift to correct
  }
  ContactData at(const Eigen::Vector3d& v) const {
    ContactData d(model, contacts);
    compute_contact_data(model, contacts, Eigen::Vector3d::Zero(), v, {}, d);
    return d;
  }
};

ContactModes one(ContactMode mode, const Eigen::Vector2d& slip = Eigen::Vector2d::UnitX()) {
  ContactModes m = ContactModes::all_open(1);
  m.mode[0] = mode;
  m.slip[0] = slip;
  return m;
}

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

// `bodies` planar bodies of mass 1 + 0.1 i resting at rest on the ground, each on corners at
// `corners` (x, m) under its centre, friction mu.
struct RestingBodies {
  Model model;
  ContactModel contacts;
  std::unique_ptr<ContactData> data;
  RestingBodies(int bodies, const std::vector<double>& corners, double mu) {
    for (int i = 0; i < bodies; ++i) {
      Body b;
      b.name = std::string("b").append(std::to_string(i));
      b.joint.type = JointType::planar;
      b.mass = 1.0 + 0.1 * i;
      b.inertia = Mat3::Identity();
      model.bodies.push_back(b);
    }
    model.gravity = Vec3(0, -g, 0);
    finalize_model(model);
    std::vector<Geometry> geometry(1);
    geometry[0].name = "ground";
    geometry[0].shape.type = ShapeType::halfspace;
    geometry[0].shape.normal = Vec3::UnitY();
    std::vector<ContactDef> defs;
    for (int i = 0; i < bodies; ++i)
      for (double x : corners) defs.push_back({"c", i, Vec3(x, 0, 0), 0.0, 0, mu, 0.0});
    contacts = ContactModel(geometry, defs, true);
    data = std::make_unique<ContactData>(model, contacts);
    compute_contact_data(model, contacts, Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv), {}, *data);
  }
  bool forces(const ContactModes& modes, ModeForces& out) const {
    return constrained_acceleration(contacts, 0.0, data->body, data->frames, data->jac, modes, out);
  }
};

// Frictionless corners at `corners` symmetric under each body's centre: its forces are the equal
// shares m g / corners. Three corners (x = -0.5, 0, 0.5) give three normal rows for the two
// degrees of freedom held, so the force system is singular: statics leaves one force free per body
// and the least-norm forces (what the mode's forces take without references) are the equal shares.
// Two corners give a definite one.
void expect_equal_shares(int bodies, const std::vector<double>& corners) {
  const RestingBodies r(bodies, corners, 0.0);
  const Model& model = r.model;
  ContactModes modes = ContactModes::all_open(r.contacts.size());
  for (auto& m : modes.mode) m = ContactMode::slide;
  ModeForces f;
  ASSERT_TRUE(r.forces(modes, f));
  const int n = static_cast<int>(corners.size());
  for (int i = 0; i < bodies; ++i)
    for (int k = 0; k < n; ++k)
      EXPECT_NEAR(f.lambda_n(n * i + k), (1.0 + 0.1 * i) * g / n, 1e-9) << "body " << i << " corner " << k;
  EXPECT_LT(f.vdot.cwiseAbs().maxCoeff(), 1e-9);
  // A large model's bodies, each an island of its own, are solved one by one, each as one
  // body alone is.
  using Solver = ModeForceScratch::Solver;
  const Solver expected = n == 2 ? Solver::definite : model.nv >= kBlockwiseFrom ? Solver::pivoted : Solver::cod;
  if (model.nv >= kBlockwiseFrom) {
    EXPECT_EQ(f.scratch.solver, Solver::islands);
    EXPECT_EQ(f.scratch.island_solver, std::vector<Solver>(bodies, expected));
  } else {
    EXPECT_EQ(f.scratch.solver, expected);
  }
  Eigen::VectorXd x;
  if (n == 2) {
    EXPECT_EQ(painleve_margin(f, 0, x), std::numeric_limits<double>::infinity());
  }
}

// Below kBlockwiseFrom velocities the complete orthogonal decomposition solves a singular system,
// from it the pivoted LDL^T: the same least-norm forces.
TEST(ContactForces, ASingularContactSetCarriesTheLeastNormForces) {
  expect_equal_shares(1, {-0.5, 0.0, 0.5});   // 3 velocities
  expect_equal_shares(22, {-0.5, 0.0, 0.5});  // 66 velocities
}

// A definite system: Eigen's LDL^T below kBlockwiseFrom velocities, from it the pivoted LDL^T at
// full rank (one factorization where a failed LDL^T used to come first).
TEST(ContactForces, ADefiniteContactSetIsSolvedExactlyAtAnySize) {
  expect_equal_shares(1, {-0.5, 0.5});
  expect_equal_shares(22, {-0.5, 0.5});
}

ContactModes all_sliding(const RestingBodies& r) {
  ContactModes modes = ContactModes::all_open(r.contacts.size());
  for (auto& m : modes.mode) m = ContactMode::slide;
  return modes;
}

// 22 planar bodies sliding on `corners` each, sharing no contact (from kBlockwiseFrom velocities
// on), against one body alone (below it: the complete orthogonal decomposition). Each island's
// non-symmetric force system takes `island_solver`, and each body carries the forces it carries
// alone: its weight, -mu times it along the slip, and the same motion and Painleve margin. One
// island alone (every other body lifted) is the whole A, by the same solver.
void expect_sliding_islands(const std::vector<double>& corners, ModeForceScratch::Solver island_solver) {
  const double mu = 0.4;
  const int n = static_cast<int>(corners.size());
  const RestingBodies alone(1, corners, mu), row(22, corners, mu);
  ASSERT_GE(row.model.nv, kBlockwiseFrom);
  ModeForces f1, f22;
  ASSERT_TRUE(alone.forces(all_sliding(alone), f1));
  ASSERT_TRUE(row.forces(all_sliding(row), f22));
  using Solver = ModeForceScratch::Solver;
  EXPECT_EQ(f1.scratch.solver, Solver::cod);
  EXPECT_EQ(f22.scratch.solver, Solver::islands);
  EXPECT_EQ(f22.scratch.island_solver, std::vector<Solver>(22, island_solver));
  for (int k = 0; k < n; ++k) EXPECT_NEAR(f22.lambda_n(k), f1.lambda_n(k), 1e-12) << k;
  EXPECT_LT((f22.vdot.head(3) - f1.vdot).cwiseAbs().maxCoeff(), 1e-12);
  Eigen::VectorXd x;
  const double margin = painleve_margin(f1, 0, x);
  ASSERT_TRUE(std::isfinite(margin));
  EXPECT_NEAR(painleve_margin(f22, 0, x), margin, 1e-12 * std::abs(margin));
  for (int i = 0; i < 22; ++i) {
    const double m = 1.0 + 0.1 * i;
    EXPECT_NEAR(f22.lambda_n.segment(n * i, n).sum(), m * g, 1e-9) << i;  // the weight
    EXPECT_NEAR(f22.vdot[3 * i + 1], 0.0, 1e-9) << i;                      // held on the ground
    EXPECT_NEAR(f22.vdot[3 * i], -mu * g, 1e-9) << i;                      // friction against +x
  }
  ContactModes one_body = all_sliding(row);
  for (int i = n; i < row.contacts.size(); ++i) one_body.mode[i] = ContactMode::open;
  ModeForces f;
  ASSERT_TRUE(row.forces(one_body, f));
  EXPECT_EQ(f.scratch.solver, island_solver);
  for (int k = 0; k < n; ++k) EXPECT_NEAR(f.lambda_n(k), f1.lambda_n(k), 1e-12) << k;
  EXPECT_NEAR(painleve_margin(f, 0, x), margin, 1e-12 * std::abs(margin));
}

// On three corners each body's force system is singular: the decomposition, island by island.
TEST(ContactForces, SeparateSlidingBodiesTakeTheirForcesIslandByIsland) {
  expect_sliding_islands({-0.5, 0.0, 0.5}, ModeForceScratch::Solver::cod);
}

// On two corners it has full rank and well spread pivots: LU (a third of the decomposition's cost)
// must give what the decomposition gives, to rounding.
TEST(ContactForces, WellConditionedSlidingSystemsOfLargeModelsAreSolvedByLu) {
  expect_sliding_islands({-0.5, 0.5}, ModeForceScratch::Solver::lu);
}

// A force system whose LU failed is not factored again while its rows stay the same: the second
// solve of 22 singular sliding islands goes straight to the decomposition, with the same bits, where
// 22 regular ones are factored by LU each time.
TEST(ContactForces, ASingularStructureIsFactoredByLuOnce) {
  using Solver = ModeForceScratch::Solver;
  for (const bool singular : {true, false}) {
    const RestingBodies row(22, singular ? std::vector<double>{-0.5, 0.0, 0.5} : std::vector<double>{-0.5, 0.5}, 0.4);
    const Solver expected = singular ? Solver::cod : Solver::lu;
    ModeForces f;
    ASSERT_TRUE(row.forces(all_sliding(row), f));
    EXPECT_EQ(f.scratch.lu_factorizations, 22);
    EXPECT_EQ(f.scratch.island_solver, std::vector<Solver>(22, expected));
    EXPECT_EQ(f.scratch.singular_structures.size(), singular ? 22u : 0u);
    const Eigen::VectorXd lambda_n = f.lambda_n, vdot = f.vdot;
    ASSERT_TRUE(row.forces(all_sliding(row), f));
    EXPECT_EQ(f.scratch.lu_factorizations, singular ? 22 : 44) << singular;
    EXPECT_EQ(f.scratch.island_solver, std::vector<Solver>(22, expected));
    EXPECT_EQ(f.lambda_n, lambda_n);
    EXPECT_EQ(f.vdot, vdot);
    // Another structure of the same bodies (the first body lifted off one corner) is factored anew.
    ContactModes lifted = all_sliding(row);
    lifted.mode[0] = ContactMode::open;
    const long before = f.scratch.lu_factorizations;
    ASSERT_TRUE(row.forces(lifted, f));
    EXPECT_EQ(f.scratch.lu_factorizations, before + (singular ? 1 : 22));
    EXPECT_EQ(f.scratch.island_solver[0], Solver::lu);  // two corners left: regular
  }
}

// Islands of both kinds in one force system: a sticking body's island is symmetric and takes the
// pivoted LDL^T (singular: three corners hold two degrees of freedom and friction one more), a
// sliding body's takes the complete orthogonal decomposition. Each carries the forces it carries
// alone: the sticking body its weight in equal shares and no friction, the sliding one its weight
// and -mu times it along the slip. One sticking body alone is one island: the whole A, pivoted.
TEST(ContactForces, StickingAndSlidingIslandsEachTakeTheirOwnSolve) {
  const double mu = 0.4;
  const RestingBodies row(22, {-0.5, 0.0, 0.5}, mu);
  ASSERT_GE(row.model.nv, kBlockwiseFrom);
  ContactModes modes = ContactModes::all_open(row.contacts.size());
  for (int i = 0; i < row.contacts.size(); ++i) modes.mode[i] = (i / 3) % 2 ? ContactMode::stick : ContactMode::slide;
  ModeForces f;
  ASSERT_TRUE(row.forces(modes, f));
  using Solver = ModeForceScratch::Solver;
  ASSERT_EQ(f.scratch.solver, Solver::islands);
  ASSERT_EQ(f.scratch.island_solver.size(), 22u);
  for (int b = 0; b < 22; ++b) {
    const bool sticks = b % 2;
    const int j = f.scratch.row_island[3 * b];  // the island of the body's first corner's normal row
    EXPECT_EQ(f.scratch.island_solver[j], sticks ? Solver::pivoted : Solver::cod) << b;
    const double weight = (1.0 + 0.1 * b) * g;
    EXPECT_NEAR(f.lambda_n.segment(3 * b, 3).sum(), weight, 1e-9) << b;
    EXPECT_NEAR(f.vdot[3 * b + 1], 0.0, 1e-9) << b;
    EXPECT_NEAR(f.vdot[3 * b], sticks ? 0.0 : -mu * g, 1e-9) << b;
    if (sticks) {
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(f.lambda_n[3 * b + k], weight / 3, 1e-9) << b << " " << k;
        EXPECT_NEAR(f.lambda_t(3 * b + k, 0), 0.0, 1e-9) << b << " " << k;
      }
    }
  }
  Eigen::VectorXd x;
  EXPECT_TRUE(std::isfinite(painleve_margin(f, 0, x)));  // a slide's margin, from its island's decomposition
  ContactModes one_body = ContactModes::all_open(row.contacts.size());
  for (int i = 3; i < 6; ++i) one_body.mode[i] = ContactMode::stick;
  ModeForces f1;
  ASSERT_TRUE(row.forces(one_body, f1));
  EXPECT_EQ(f1.scratch.solver, Solver::pivoted);
  for (int i = 3; i < 6; ++i) EXPECT_NEAR(f1.lambda_n[i], f.lambda_n[i], 1e-9) << i;
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

// `bodies` free boxes (0.4 x 0.3 x 0.2 m) resting on `corners` of their bottom face each, friction
// 0.1 to 0.35 from corner to corner, under gravity with a tangential part of 0.35 g pointing 10
// degrees from the tangent plane's x: every corner slides, each along its own slip angle. `dent` [m] moves the
// fourth corner's point down out of the face's plane: its phi then disagrees with the others', and
// with drift correction (baumgarte [1/s]) a singular A's target is out of its range.
struct SlidingBoxes {
  Model model;
  ContactModel contacts;
  std::unique_ptr<ContactData> data;
  ContactModes modes;
  double baumgarte;
  SlidingBoxes(int bodies, int corners, const Vec3& velocity, double slip_blend, double dent, double baumgarte_rate)
      : baumgarte(baumgarte_rate) {
    for (int i = 0; i < bodies; ++i) {
      Body b;
      b.name = std::string("box").append(std::to_string(i));
      b.joint.type = JointType::free;
      b.mass = 12.0 + i;
      b.inertia = Vec3(0.13, 0.2, 0.25).asDiagonal() * b.mass;
      model.bodies.push_back(b);
    }
    model.gravity = Vec3(0.35 * g * std::cos(0.17), 0.35 * g * std::sin(0.17), -g);
    finalize_model(model);
    std::vector<Geometry> geometry(1);
    geometry[0].name = "ground";
    geometry[0].shape.type = ShapeType::halfspace;
    geometry[0].shape.normal = Vec3::UnitZ();
    const Vec3 at[4] = {{0.2, 0.15, -0.1}, {-0.2, 0.15, -0.1}, {-0.2, -0.15, -0.1}, {0.2, -0.15, -0.1 - dent}};
    std::vector<ContactDef> defs;
    for (int i = 0; i < bodies; ++i)
      for (int k = 0; k < corners; ++k) defs.push_back({"c", i, at[k], 0.0, 0, 0.1 + 0.05 * ((i + k) % 6), 0.0});
    contacts = ContactModel(geometry, defs, false);
    data = std::make_unique<ContactData>(model, contacts);
    Eigen::VectorXd q = neutral_configuration(model), v = Eigen::VectorXd::Zero(model.nv);
    for (int i = 0; i < bodies; ++i) {
      q[7 * i + 2] = 0.1;
      v.segment<3>(6 * i) = velocity;
    }
    compute_contact_data(model, contacts, q, v, {}, *data);
    modes = ContactModes::all_open(contacts.size());
    modes.slip_blend = slip_blend;
    for (int c = 0; c < contacts.size(); ++c) {
      modes.mode[c] = ContactMode::slide;
      modes.slip[c] = Eigen::Vector2d(std::cos(0.3 + 0.7 * c), std::sin(0.3 + 0.7 * c));
    }
  }
  bool forces(const ContactModes& m, ModeForces& out) const {
    return constrained_acceleration(contacts, baumgarte, data->body, data->frames, data->jac, m, out);
  }
  // d vdot / d theta_c by central differences of the mode's forces.
  Eigen::VectorXd turned_by_differences(int c) const {
    constexpr double h = 1e-6;
    ModeForces plus, minus;
    ContactModes m = modes;
    const double theta = std::atan2(modes.slip[c][1], modes.slip[c][0]);
    m.slip[c] = Eigen::Vector2d(std::cos(theta + h), std::sin(theta + h));
    EXPECT_TRUE(forces(m, plus));
    m.slip[c] = Eigen::Vector2d(std::cos(theta - h), std::sin(theta - h));
    EXPECT_TRUE(forces(m, minus));
    return (plus.vdot - minus.vdot) / (2 * h);
  }
};

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

TEST(ContactForces, ModeChoiceFollowsCoulomb) {
  std::string why;
  ContactModes modes = ContactModes::all_open(1);
  // At rest on a flat table: stick.
  {
    const Table t(0.5, 0.0);
    const ContactData d = t.at(Eigen::Vector3d::Zero());
    ASSERT_TRUE(select_modes(t.contacts, t.settings, d.body, d.jac, {0}, {}, modes, why)) << why;
    EXPECT_EQ(modes.mode[0], ContactMode::stick);
  }
  // Moving along it: slide the way it moves.
  {
    const Table t(0.5, 0.0);
    const ContactData d = t.at(Eigen::Vector3d(-1, 0, 0));
    ASSERT_TRUE(select_modes(t.contacts, t.settings, d.body, d.jac, {0}, {}, modes, why)) << why;
    EXPECT_EQ(modes.mode[0], ContactMode::slide);
    EXPECT_EQ(modes.slip[0](0), -1.0);
  }
  // At rest on a 30 degree slope: sticks when mu >= tan 30 degrees, else slides downhill.
  const double slope = M_PI / 6;
  {
    const Table t(0.6, slope);
    const ContactData d = t.at(Eigen::Vector3d::Zero());
    ASSERT_TRUE(select_modes(t.contacts, t.settings, d.body, d.jac, {0}, {}, modes, why)) << why;
    EXPECT_EQ(modes.mode[0], ContactMode::stick);
  }
  {
    const Table t(0.5, slope);
    const ContactData d = t.at(Eigen::Vector3d::Zero());
    ASSERT_TRUE(select_modes(t.contacts, t.settings, d.body, d.jac, {0}, {}, modes, why)) << why;
    ASSERT_EQ(modes.mode[0], ContactMode::slide);
    // The tangent is the normal turned clockwise: (cos, sin) on this slope, which points uphill.
    EXPECT_LT(modes.slip[0](0), 0.0);
  }
  // A table above the block (normal -y): gravity pulls the block away, the contact opens.
  {
    const Table t(0.5, M_PI);
    const ContactData d = t.at(Eigen::Vector3d::Zero());
    ASSERT_TRUE(select_modes(t.contacts, t.settings, d.body, d.jac, {0}, {}, modes, why)) << why;
    EXPECT_EQ(modes.mode[0], ContactMode::open);
  }
}

// From kBlockwiseFrom velocities on, bodies that share no contact choose their modes by one
// acceleration LCP each: 22 bodies on two corners, every other one moving along -x, each takes the
// modes Coulomb gives it alone (the movers slide along their motion, the others stick), and its
// corners carry its weight.
TEST(ContactForces, SeparateBodiesChooseTheirModesIslandByIsland) {
  RestingBodies r(22, {-0.5, 0.5}, 0.5);
  ASSERT_GE(r.model.nv, kBlockwiseFrom);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(r.model.nv);
  for (int i = 0; i < 22; i += 2) v[3 * i] = -1.0;
  compute_contact_data(r.model, r.contacts, Eigen::VectorXd::Zero(r.model.nq), v, {}, *r.data);
  std::vector<int> candidates(r.contacts.size());
  for (int i = 0; i < r.contacts.size(); ++i) candidates[i] = i;
  ContactModes modes = ContactModes::all_open(r.contacts.size());
  std::string why;
  ASSERT_TRUE(select_modes(r.contacts, ContactSettings{}, r.data->body, r.data->jac, candidates, {}, modes, why)) << why;
  for (int i = 0; i < 22; ++i) {
    for (int c = 2 * i; c < 2 * i + 2; ++c) {
      if (i % 2 == 0) {
        ASSERT_EQ(modes.mode[c], ContactMode::slide) << c;
        EXPECT_EQ(modes.slip[c](0), -1.0) << c;
      } else {
        EXPECT_EQ(modes.mode[c], ContactMode::stick) << c;
      }
    }
    EXPECT_NEAR(modes.reference_n[2 * i] + modes.reference_n[2 * i + 1], (1.0 + 0.1 * i) * g, 1e-9) << i;
  }
  // Body 0 alone (same mass) chooses the same forces.
  RestingBodies alone(1, {-0.5, 0.5}, 0.5);
  compute_contact_data(alone.model, alone.contacts, Eigen::VectorXd::Zero(3), v.head(3), {}, *alone.data);
  ContactModes one = ContactModes::all_open(2);
  ASSERT_TRUE(select_modes(alone.contacts, ContactSettings{}, alone.data->body, alone.data->jac, {0, 1}, {}, one, why));
  for (int c = 0; c < 2; ++c) {
    EXPECT_EQ(one.mode[c], modes.mode[c]);
    EXPECT_NEAR(one.reference_n[c], modes.reference_n[c], 1e-12) << c;
  }
}

TEST(ContactForces, AFiredGuardTipsTheBalanceOfABoundaryCase) {
  // Friction at the cone's edge (mu = tan 30 degrees, a hair above) sticks unless the slip guard fired.
  const Table t(std::tan(M_PI / 6) * (1 + 1e-9), M_PI / 6);
  const ContactData d = t.at(Eigen::Vector3d::Zero());
  std::string why;
  ContactModes modes = ContactModes::all_open(1);
  ASSERT_TRUE(select_modes(t.contacts, t.settings, d.body, d.jac, {0}, {}, modes, why)) << why;
  EXPECT_EQ(modes.mode[0], ContactMode::stick);
  ModePreference prefer{{false}, {true}};
  ASSERT_TRUE(select_modes(t.contacts, t.settings, d.body, d.jac, {0}, prefer, modes, why)) << why;
  EXPECT_EQ(modes.mode[0], ContactMode::slide);
}

TEST(ContactForces, ClosedFlagsAndCounts) {
  ContactModes m = ContactModes::all_open(3);
  m.mode[1] = ContactMode::slide;
  std::vector<bool> closed;
  closed_flags(m, closed);
  EXPECT_EQ(closed, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(m.closed(), 1);
}

}  // namespace
}  // namespace impactsim
