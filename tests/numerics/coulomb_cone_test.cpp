// The circular-cone contact problem against a particle's closed forms: a plastic landing that
// slides on, one that sticks, and a contact that separates.
#include "numerics/coulomb_cone.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace impactsim {
namespace {

// A particle of mass m on a rough floor: W = I / m in (normal, tangent, tangent).
struct Particle {
  double m = 2.0, mu = 0.4;
  Eigen::MatrixXd W = Eigen::Matrix3d::Identity() / 2.0;
  Eigen::VectorXd mu_v = Eigen::VectorXd::Constant(1, 0.4);
};

TEST(CoulombCone, APlasticLandingSlidesOnAgainstItsSlip) {
  const Particle p;
  // Landing at 1 m/s while sliding at 3 m/s along (cos 0.3, sin 0.3): lambda = m 1, friction mu lambda
  // against the slip, which slows by mu lambda / m = 0.4 m/s and keeps its direction.
  const Eigen::Vector2d s(std::cos(0.3), std::sin(0.3));
  const Eigen::Vector3d b(-1.0, 3 * s.x(), 3 * s.y());
  const ConeSolution sol = solve_coulomb_cone(p.W, b, p.mu_v, Eigen::Vector3d::Zero(), 1e-14);
  ASSERT_TRUE(sol.converged) << sol.residual;
  EXPECT_NEAR(sol.r[0], 2.0, 1e-13);
  EXPECT_NEAR((sol.r.tail<2>() + 0.8 * s).norm(), 0.0, 1e-13);
  const Eigen::Vector3d u = p.W * sol.r + b;
  EXPECT_NEAR(u[0], 0.0, 1e-13);
  EXPECT_NEAR((u.tail<2>() - 2.6 * s).norm(), 0.0, 1e-13);
  EXPECT_LT(coulomb_cone_residual(p.W, b, p.mu_v, sol.r), 1e-13);
}

TEST(CoulombCone, ASlowSlipSticksInsideTheCone) {
  const Particle p;
  // Sliding at 0.3 m/s needs 0.6 N s to stop, within mu lambda = 0.8: it sticks.
  const Eigen::Vector3d b(-1.0, 0.3 * std::cos(2.0), 0.3 * std::sin(2.0));
  const ConeSolution sol = solve_coulomb_cone(p.W, b, p.mu_v, Eigen::Vector3d(1, 0, 0), 1e-14);
  ASSERT_TRUE(sol.converged);
  const Eigen::Vector3d u = p.W * sol.r + b;
  EXPECT_LT(u.norm(), 1e-13);
  EXPECT_NEAR(sol.r.tail<2>().norm(), 0.6, 1e-13);
  EXPECT_LT(sol.r.tail<2>().norm(), p.mu * sol.r[0]);
}

TEST(CoulombCone, ASeparatingContactTakesNoImpulse) {
  const Particle p;
  const Eigen::Vector3d b(0.5, 1.0, -2.0);
  const ConeSolution sol = solve_coulomb_cone(p.W, b, p.mu_v, Eigen::Vector3d(3, 1, 1), 1e-14);
  ASSERT_TRUE(sol.converged);
  EXPECT_LT(sol.r.norm(), 1e-14);
  // A wrong answer has a residual: the cone's equations can fail.
  EXPECT_GT(coulomb_cone_residual(p.W, b, p.mu_v, Eigen::Vector3d(1, 0, 0)), 0.5);
}

// Routh's step: lambda <= lambda_max. Capped at 0.5 N s of the 2 N s a stop needs, the particle
// still approaches at 1 - 0.5 / m = 0.75 m/s, and friction is mu lambda_max against the slip.
TEST(CoulombCone, AnUpperBoundCapsTheNormalImpulseAndTheFriction) {
  const Particle p;
  const Eigen::Vector3d b(-1.0, 0.0, 3.0);
  const Eigen::VectorXd upper = Eigen::VectorXd::Constant(1, 0.5);
  const ConeSolution sol = solve_coulomb_cone(p.W, b, p.mu_v, Eigen::Vector3d::Zero(), 1e-14, 100, upper);
  ASSERT_TRUE(sol.converged);
  EXPECT_NEAR(sol.r[0], 0.5, 1e-14);
  EXPECT_NEAR(sol.r[2], -0.2, 1e-14);
  EXPECT_NEAR((p.W * sol.r + b)[0], -0.75, 1e-14);
}

// Many contacts on one body (rows dependent: G singular where they press), from a poor start:
// the answer still meets the equations.
TEST(CoulombCone, DependentRowsFromAPoorStartStillConverge) {
  // A point mass with four identical floor contacts: W = 1/m of the 3 x 3 blocks, repeated.
  const int m = 4;
  Eigen::MatrixXd J(3 * m, 3);
  for (int i = 0; i < m; ++i) J.middleRows(3 * i, 3).setIdentity();
  const Eigen::MatrixXd W = J * J.transpose() / 2.0;
  Eigen::VectorXd b = J * Eigen::Vector3d(2.0, -1.0, -1.0);
  b = b.cwiseProduct(Eigen::VectorXd::Ones(3 * m));
  for (int i = 0; i < m; ++i) std::swap(b[3 * i], b[3 * i + 2]);  // normal -1, tangents (-1, 2)
  const Eigen::VectorXd mu = Eigen::VectorXd::Constant(m, 0.3);
  const ConeSolution sol = solve_coulomb_cone(W, b, mu, Eigen::VectorXd::Constant(3 * m, 5.0), 1e-12);
  ASSERT_TRUE(sol.converged) << sol.residual;
  const Eigen::VectorXd u = W * sol.r + b;
  EXPECT_NEAR(u[0], 0.0, 1e-12);
  double total = 0;
  for (int i = 0; i < m; ++i) total += sol.r[3 * i];
  EXPECT_NEAR(total, 2.0, 1e-11);  // the mass's stop, however it is shared
  // Sliding on: slip (-1, 2) slowed by mu total / m = 0.3 along itself.
  const Eigen::Vector2d s = Eigen::Vector2d(-1, 2).normalized();
  EXPECT_NEAR((u.segment<2>(1) - (std::sqrt(5.0) - 0.3) * s).norm(), 0.0, 1e-11);
}

// The recorded step below (tests/numerics/data/sphere_pile_step_cone.txt: n and the tolerance, W
// row by row, b, mu, the start); W empty where the file cannot be read whole.
struct RecordedStep {
  double tolerance = 0;
  Eigen::MatrixXd W;
  Eigen::VectorXd b, mu, start;
  // Every impulse in its cone: lambda >= 0, |p| <= mu lambda.
  void expect_in_cone(const Eigen::VectorXd& r) const {
    for (Eigen::Index i = 0; i < mu.size(); ++i) {
      EXPECT_GE(r[3 * i], 0.0) << i;
      EXPECT_LE(r.segment<2>(3 * i + 1).norm(), mu[i] * r[3 * i] * (1 + 1e-12)) << i;
    }
  }
};

RecordedStep recorded_step() {
  std::ifstream in(std::string(IMPACTSIM_SOURCE_DIR) + "/tests/numerics/data/sphere_pile_step_cone.txt");
  RecordedStep s;
  int n = 0;
  if (!(in >> n >> s.tolerance) || n <= 0) return {};
  s.W.resize(n, n);
  s.b.resize(n);
  s.mu.resize(n / 3);
  s.start.resize(n);
  for (int i = 0; i < n * n; ++i) in >> s.W(i / n, i % n);
  for (double& x : s.b) in >> x;
  for (double& x : s.mu) in >> x;
  for (double& x : s.start) in >> x;
  return in ? s : RecordedStep{};
}

// A fixed step of a 10-sphere pile at mu 0.26 (24 contacts, 72 rows; W singular: redundant
// contacts), recorded with its start and tolerance (RecordedStep). Newton's merit stalls at kinks
// there (line searches accepting steps of 1e-6 to 1e-12 that move nothing) and the sweeps leave it
// stalled at 6 tolerances. Each stalled run ends at its stall and the rounds of sweeps with the one
// that stalls near the tolerance: 17 iterations and 750 sweeps, where running every Newton run to
// no descent and every round took 103 and 7,750 to the same residual. The answer meets the cone's
// equations within kNearFactor tolerances, in the cone.
TEST(CoulombCone, AStalledPileStepEndsAtItsStall) {
  const RecordedStep p = recorded_step();
  ASSERT_GT(p.W.size(), 0);
  const ConeSolution sol = solve_coulomb_cone(p.W, p.b, p.mu, p.start, p.tolerance);
  ASSERT_TRUE(sol.converged) << sol.residual;
  EXPECT_GE(sol.stalled_runs, 1);
  EXPECT_LE(sol.iterations, 40);
  EXPECT_LE(sol.sweeps, 1750);
  EXPECT_LE(sol.residual, kNearFactor * p.tolerance);
  EXPECT_LE(coulomb_cone_residual(p.W, p.b, p.mu, sol.r), kNearFactor * p.tolerance);
  p.expect_in_cone(sol.r);
}

// The same step with the first round of sweeps as its stall round (a fixed step's, whose own
// error is O(h)): the answer after 250 sweeps is within kStallFactor of the tolerance, so the
// rounds end there, where the full search took 750 sweeps. Asked for a tolerance 1e6 times
// tighter, the answer after that round is not within kStallFactor of it, and the rounds go on.
TEST(CoulombCone, AStallRoundEndsTheSweepsWithinTheStallFactor) {
  const RecordedStep p = recorded_step();
  ASSERT_GT(p.W.size(), 0);
  const ConeSolution full = solve_coulomb_cone(p.W, p.b, p.mu, p.start, p.tolerance);
  const ConeSolution early = solve_coulomb_cone(p.W, p.b, p.mu, p.start, p.tolerance, 100, {}, kFirstSweepRound);
  EXPECT_EQ(full.sweeps, 750);
  EXPECT_EQ(early.sweeps, 250);
  ASSERT_TRUE(early.converged) << early.residual;
  EXPECT_LE(early.residual, kStallFactor * p.tolerance);
  EXPECT_LE(coulomb_cone_residual(p.W, p.b, p.mu, early.r), kStallFactor * p.tolerance);
  p.expect_in_cone(early.r);
  const ConeSolution tight =
      solve_coulomb_cone(p.W, p.b, p.mu, p.start, 1e-6 * p.tolerance, 100, {}, kFirstSweepRound);
  EXPECT_GT(tight.sweeps, 250);
}

// Twelve such point masses (48 contacts, 144 rows: Newton's steps by LU of G + 1e-9 I, see
// newton()), each with its own slip: each stops its approach, however its four contacts share it,
// and slides on at |s| - mu, or sticks where |s| <= mu. Singular G, and no least-norm step needed.
TEST(CoulombCone, ManyDependentRowsAreSolvedByLu) {
  const int masses = 12, m = 4 * masses;
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(3 * m, 3 * masses);
  for (int i = 0; i < m; ++i) J.block<3, 3>(3 * i, 3 * (i / 4)).setIdentity();
  const Eigen::MatrixXd W = J * J.transpose() / 2.0;
  Eigen::VectorXd v(3 * masses);  // (normal, tangent, tangent) per mass
  for (int k = 0; k < masses; ++k) v.segment<3>(3 * k) << -1.0, 0.1 * k * std::cos(k), 0.1 * k * std::sin(k);
  const Eigen::VectorXd b = J * v;
  const Eigen::VectorXd mu = Eigen::VectorXd::Constant(m, 0.3);
  const ConeSolution sol = solve_coulomb_cone(W, b, mu, Eigen::VectorXd::Zero(3 * m), 1e-12);
  ASSERT_TRUE(sol.converged) << sol.residual;
  EXPECT_EQ(sol.least_norm_steps, 0);
  EXPECT_GT(sol.sparse_lu_steps, 0);  // W's blocks of 12 rows: G holds 1/12 of its entries
  const Eigen::VectorXd u = W * sol.r + b;
  for (int k = 0; k < masses; ++k) {
    double total = 0;
    for (int i = 4 * k; i < 4 * k + 4; ++i) total += sol.r[3 * i];
    EXPECT_NEAR(total, 2.0, 1e-11) << k;
    const Eigen::Vector2d s = v.segment<2>(3 * k + 1);
    const double left = std::max(s.norm() - 0.3, 0.0);  // mu total / m = 0.3
    EXPECT_NEAR(u[12 * k], 0.0, 1e-11) << k;
    EXPECT_NEAR((u.segment<2>(12 * k + 1) - left * s.normalized()).norm(), 0.0, 1e-11) << k;
  }
}

// Forty unit point masses in a row on a rough floor, each touching the next (normal along x,
// separating at v_x,k+1 - v_x,k): 79 contacts, 237 rows, each coupled only to the contacts of its
// two masses, so Newton's steps go by the sparse LU. Every mass lands at v_z = -1 while the row
// closes up (v_x,k = -0.1 k) and slips along y: the answer meets the cone's equations, and the
// floor's normal impulses take the row's vertical momentum, 40 N s (the masses' friction on each
// other is internal).
TEST(CoulombCone, ARowOfMassesIsSolvedBySparseLu) {
  const int masses = 40, m = 2 * masses - 1;
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(3 * m, 3 * masses);  // velocities (x, y, z) per mass
  for (int k = 0; k < masses; ++k) {
    J(3 * k, 3 * k + 2) = 1;      // floor: normal z, tangents x and y
    J(3 * k + 1, 3 * k) = 1;
    J(3 * k + 2, 3 * k + 1) = 1;
  }
  for (int k = 0; k + 1 < masses; ++k) {
    const int row = 3 * (masses + k);
    for (int axis = 0; axis < 3; ++axis) {  // normal x, tangents y and z: k + 1 relative to k
      J(row + axis, 3 * (k + 1) + axis) = 1;
      J(row + axis, 3 * k + axis) = -1;
    }
  }
  const Eigen::MatrixXd W = J * J.transpose();
  Eigen::VectorXd v(3 * masses);
  for (int k = 0; k < masses; ++k) v.segment<3>(3 * k) << -0.1 * k, 0.05 * std::sin(k), -1.0;
  const Eigen::VectorXd b = J * v;
  const Eigen::VectorXd mu = Eigen::VectorXd::Constant(m, 0.3);
  const ConeSolution sol = solve_coulomb_cone(W, b, mu, Eigen::VectorXd::Zero(3 * m), 1e-12);
  ASSERT_TRUE(sol.converged) << sol.residual;
  EXPECT_GE(sol.sparse_lu_steps, 2);  // the steps after the first write into its G's pattern
  EXPECT_LE(coulomb_cone_residual(W, b, mu, sol.r), 1e-12);
  const Eigen::VectorXd u = W * sol.r + b;
  double floor_total = 0;
  for (int i = 0; i < m; ++i) {
    EXPECT_GE(sol.r[3 * i], 0.0) << i;
    EXPECT_GE(u[3 * i], -1e-12) << i;
    EXPECT_LE(sol.r.segment<2>(3 * i + 1).norm(), 0.3 * sol.r[3 * i] * (1 + 1e-12) + 1e-15) << i;
    if (i < masses) floor_total += sol.r[3 * i];
  }
  EXPECT_NEAR(floor_total, masses, 1e-10);
  // One mass under 40 contacts: W is dense, and the dense LU solves it.
  Eigen::MatrixXd J1(3 * 40, 3);
  for (int i = 0; i < 40; ++i) J1.middleRows(3 * i, 3).setIdentity();
  const Eigen::VectorXd b1 = J1 * Eigen::Vector3d(-1.0, 0.5, 0.2);
  const ConeSolution one = solve_coulomb_cone(J1 * J1.transpose(), b1, Eigen::VectorXd::Constant(40, 0.3),
                                              Eigen::VectorXd::Zero(120), 1e-12);
  ASSERT_TRUE(one.converged) << one.residual;
  EXPECT_EQ(one.sparse_lu_steps, 0);
  double total = 0;
  for (int i = 0; i < 40; ++i) total += one.r[3 * i];
  EXPECT_NEAR(total, 1.0, 1e-11);
}

}  // namespace
}  // namespace impactsim
