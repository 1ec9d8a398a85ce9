// Drumwright's per-step problems against closed forms: the exact LCP is the implicit max() law, the
// minimum-norm QP ((83)-(85)) differs from it once rows are coupled, friction
// sticks at the damper's force inside the cone and saturates on it, bilateral rows are one solve.
#include <gtest/gtest.h>

#include <cmath>

#include "core/soft_constraints.hpp"

namespace impactsim {
namespace {

SoftConstraintProblem normals(const Eigen::Matrix2d& S, const Eigen::Vector2d& r) {
  SoftConstraintProblem p;
  p.S = S;
  p.r = r;
  p.W = Eigen::Vector2d::Ones();
  p.contacts = {{0, -1, 0.0}, {1, -1, 0.0}};
  return p;
}

TEST(SoftConstraints, CoupledNormalsLcpIsTheMaxLawAndTheQpIsNot) {
  // Counterexample 1: W = I, S = [1 .8; .8 1], r = (1, -0.5).
  Eigen::Matrix2d S;
  S << 1, 0.8, 0.8, 1;
  const SoftConstraintProblem p = normals(S, Eigen::Vector2d(1, -0.5));
  SoftSolverOptions o;
  const SoftSolution lcp = solve_soft_constraints(p, o);
  ASSERT_TRUE(lcp.ok) << lcp.diagnostic;
  EXPECT_NEAR(lcp.lambda(0), 0.5, 1e-12);
  EXPECT_NEAR(lcp.lambda(1), 0.0, 1e-12);
  // lambda = max(0, r - W S lambda) row by row.
  const Eigen::Vector2d sd = p.r - S * lcp.lambda;
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(lcp.lambda(i), std::max(0.0, sd(i)), 1e-12);
  o.problem = SoftProblem::min_norm_qp;
  const SoftSolution qp = solve_soft_constraints(p, o);
  ASSERT_TRUE(qp.ok) << qp.diagnostic;
  EXPECT_NEAR(qp.lambda(0), 2 / 4.64, 1e-9);  // (0.431, 0.172)
  EXPECT_NEAR(qp.lambda(1), 0.8 / 4.64, 1e-9);
}

TEST(SoftConstraints, SecondCounterexample) {
  Eigen::Matrix2d S;
  S << 1, 0.9, 0.9, 1;
  const SoftConstraintProblem p = normals(S, Eigen::Vector2d(1, 0.6));
  SoftSolverOptions o;
  const SoftSolution lcp = solve_soft_constraints(p, o);
  EXPECT_NEAR(lcp.lambda(0), 0.458, 1e-3);
  EXPECT_NEAR(lcp.lambda(1), 0.094, 1e-3);
  o.problem = SoftProblem::min_norm_qp;
  const SoftSolution qp = solve_soft_constraints(p, o);
  // An earlier reproduction printed (0.417, 0.185); the minimum-norm point is the projection of 0 onto the
  // first row's half-plane, a1 / |a1|^2 with a1 = (2, 0.9), which meets the second row.
  EXPECT_NEAR(qp.lambda(0), 2 / 4.81, 1e-9);
  EXPECT_NEAR(qp.lambda(1), 0.9 / 4.81, 1e-9);
}

// One planar contact on a unit point mass: rows (n, t), S = I / m.
SoftConstraintProblem point_contact(double mu, double r_n, double r_t, double W_t) {
  SoftConstraintProblem p;
  p.S = Eigen::Matrix2d::Identity();
  p.r = Eigen::Vector2d(r_n, r_t);
  p.W = Eigen::Vector2d(1e6, W_t);
  p.contacts = {{0, 1, mu}};
  return p;
}

TEST(SoftConstraints, FrictionSticksAtTheDamperForceAndSaturatesOnTheCone) {
  SoftSolverOptions o;
  // Inside the cone: lambda_t = r_t - W_t lambda_t, so lambda_t = r_t / (1 + W_t).
  const SoftSolution stick = solve_soft_constraints(point_contact(0.5, 10.0, 3.0, 1.0), o);
  ASSERT_TRUE(stick.ok);
  const double n = 10.0 / (1 + 1e6);
  EXPECT_NEAR(stick.lambda(0), n, 1e-15);
  EXPECT_NEAR(stick.lambda(1), std::clamp(1.5, -0.5 * n, 0.5 * n), 1e-15);  // saturated: r_t / 2 > mu n
  const SoftSolution inside = solve_soft_constraints(point_contact(0.5, 1e7, 3.0, 1.0), o);
  EXPECT_NEAR(inside.lambda(1), 1.5, 1e-12);
  // The minimum-norm QP keeps the paper's bias: lambda_t = (1 + a) t / (1 + (1 + a)^2), a = W_t, t = r_t.
  o.problem = SoftProblem::min_norm_qp;
  const SoftSolution qp = solve_soft_constraints(point_contact(0.5, 1e7, 3.0, 1.0), o);
  ASSERT_TRUE(qp.ok) << qp.diagnostic;
  EXPECT_NEAR(qp.lambda(1), 2 * 3.0 / (1 + 4), 1e-6);
  const SoftSolution qp_sat = solve_soft_constraints(point_contact(0.5, 10.0, 3.0, 1.0), o);
  EXPECT_NEAR(std::abs(qp_sat.lambda(1)), 0.5 * qp_sat.lambda(0), 1e-9);
}

TEST(SoftConstraints, FrictionlessContactsBesideAFrictionalOneKeepTheirLaws) {
  // Row 0: a frictionless contact's normal; rows 1, 2: a frictional contact's normal and tangent,
  // uncoupled. The frictionless one carries no friction block in the LCP (it used to carry k + 1
  // variables pinned to zero); each contact still obeys its own law.
  SoftConstraintProblem p;
  p.S = Eigen::Matrix3d::Identity();
  p.r = Eigen::Vector3d(2.0, 10.0, 3.0);
  p.W = Eigen::Vector3d(1.0, 1e6, 1.0);
  p.contacts = {{0, -1, 0.0}, {1, 2, 0.5}};
  const SoftSolution s = solve_soft_constraints(p, {});
  ASSERT_TRUE(s.ok) << s.diagnostic;
  EXPECT_NEAR(s.lambda(0), 1.0, 1e-12);  // lambda = r / (1 + W)
  const double n = 10.0 / (1 + 1e6);
  EXPECT_NEAR(s.lambda(1), n, 1e-15);
  EXPECT_NEAR(s.lambda(2), 0.5 * n, 1e-15);  // saturated on the cone
}

TEST(SoftConstraints, BilateralRowsAreOneLinearSolve) {
  SoftConstraintProblem p;
  p.S = Eigen::Matrix2d::Identity() * 2.0;
  p.S(0, 1) = p.S(1, 0) = 0.5;
  p.r = Eigen::Vector2d(1.0, -2.0);
  p.W = Eigen::Vector2d(3.0, 4.0);
  p.bilateral = {0, 1};
  const SoftSolution s = solve_soft_constraints(p, {});
  ASSERT_TRUE(s.ok);
  // (I + W S) lambda = r.
  const Eigen::Vector2d residual = s.lambda + p.W.asDiagonal() * (p.S * s.lambda) - p.r;
  EXPECT_LT(residual.cwiseAbs().maxCoeff(), 1e-12);
}

}  // namespace
}  // namespace impactsim
