// The barrier-method conic QP against closed-form projections and its own contract: a strictly
// feasible start is required, the gap bound is met, constraints hold at the answer.
#include <gtest/gtest.h>

#include <cmath>

#include "numerics/conic_qp.hpp"

namespace impactsim {
namespace {

TEST(ConicQp, ProjectsOntoTheCone) {
  // Closest point of the circular cone |(x1, x2)| <= x0 to (0, 2, 0): (1, 1, 0).
  ConicQp p;
  p.P = Eigen::Matrix3d::Identity();
  p.c = -Eigen::Vector3d(0, 2, 0);
  p.A.resize(0, 3);
  p.cones.push_back({0, 1.0, {1, 2}});
  const ConicQpResult r = solve_conic_qp(p, Eigen::Vector3d(1, 0, 0), 1e-12);
  ASSERT_TRUE(r.ok) << r.diagnostic;
  EXPECT_NEAR(r.x(0), 1.0, 1e-6);
  EXPECT_NEAR(r.x(1), 1.0, 1e-6);
  EXPECT_NEAR(r.x(2), 0.0, 1e-9);
  EXPECT_FALSE(solve_conic_qp(p, Eigen::Vector3d(0, 2, 0), 1e-12).ok);  // not strictly feasible
}
TEST(ConicQp, LinearConstraintsGiveTheProjectionOntoTheHalfPlane) {
  // min 1/2 |x - (0, 0)|^2 s.t. x0 + x1 >= 2: the projection (1, 1), the gap below tolerance.
  ConicQp p;
  p.P = Eigen::Matrix2d::Identity();
  p.c = Eigen::Vector2d::Zero();
  p.A = Eigen::RowVector2d(1, 1);
  p.b = Eigen::VectorXd::Constant(1, 2.0);
  ASSERT_TRUE(strictly_feasible(p, Eigen::Vector2d(2, 2)));
  EXPECT_FALSE(strictly_feasible(p, Eigen::Vector2d(1, 1)));  // on the boundary
  const ConicQpResult r = solve_conic_qp(p, Eigen::Vector2d(2, 2), 1e-12);
  ASSERT_TRUE(r.ok) << r.diagnostic;
  EXPECT_NEAR(r.x(0), 1.0, 1e-6);
  EXPECT_NEAR(r.x(1), 1.0, 1e-6);
  EXPECT_LE(r.gap, 1e-12);
  EXPECT_GE(r.x.sum(), 2.0 - 1e-12);  // feasible
  EXPECT_GT(r.newton_steps, 0);
}

TEST(ConicQp, InteriorMinimumIsFoundUntouched) {
  // The unconstrained minimum (0.5, 0.5, 0.5... in a cone x0 >= |(x1, x2)|, with x0 = 3): inside.
  ConicQp p;
  p.P = Eigen::Matrix3d::Identity();
  p.c = -Eigen::Vector3d(3, 0.5, 0.5);
  p.A.resize(0, 3);
  p.cones.push_back({0, 1.0, {1, 2}});
  const ConicQpResult r = solve_conic_qp(p, Eigen::Vector3d(1, 0, 0), 1e-12);
  ASSERT_TRUE(r.ok) << r.diagnostic;
  EXPECT_LT((r.x - Eigen::Vector3d(3, 0.5, 0.5)).norm(), 1e-6);
}

}  // namespace
}  // namespace impactsim
