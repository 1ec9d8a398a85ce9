// The mode's force system solved by the factor that fits it: least-norm forces where contacts are
// redundant, LU for well-conditioned slides of large models, island by island where bodies rest
// apart, a singular structure factored by LU once; every way gives the same forces.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/contact_forces.hpp"
#include "core/force_system.hpp"
#include "tests/core/contact_fixtures.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

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

}  // namespace
}  // namespace impactsim
