// The circular-cone contact problem against a particle's closed forms: a plastic landing that
// slides on, one that sticks, and a contact that separates.
#include "numerics/coulomb_cone.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace impactsim
