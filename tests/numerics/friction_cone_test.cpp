// The friction polygon D, the friction rows D^T J_t and the tangential impulses D beta.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "numerics/friction_cone.hpp"

namespace impactsim {
namespace {

TEST(FrictionCone, PlanarPolygonIsExact) {
  const Eigen::MatrixXd D = friction_polygon(1, 8);  // k is ignored in a plane
  ASSERT_EQ(D.rows(), 1);
  ASSERT_EQ(D.cols(), 2);
  EXPECT_EQ(D(0, 0), 1.0);
  EXPECT_EQ(D(0, 1), -1.0);
}

TEST(FrictionCone, SpatialPolygonHasKEvenlySpacedUnitDirections) {
  for (int k : {3, 4, 8, 16}) {
    const Eigen::MatrixXd D = friction_polygon(2, k);
    ASSERT_EQ(D.cols(), k);
    for (int j = 0; j < k; ++j) {
      EXPECT_NEAR(D.col(j).norm(), 1.0, 1e-15);
      EXPECT_NEAR(std::atan2(D(1, j), D(0, j)), std::remainder(2 * std::numbers::pi * j / k, 2 * std::numbers::pi),
                  1e-12);
    }
    EXPECT_LT(D.rowwise().sum().norm(), 1e-12);  // balanced: the directions sum to zero
  }
}

TEST(FrictionCone, RowsAreTheVelocityAlongEachDirection) {
  // Two contacts in 3-D, each with two tangent rows.
  Eigen::MatrixXd J_t(4, 3);
  J_t << 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0;
  const Eigen::MatrixXd D = friction_polygon(2, 4);
  const Eigen::MatrixXd J_D = friction_rows(J_t, D);
  ASSERT_EQ(J_D.rows(), 8);
  const Eigen::Vector3d v(0.3, -0.7, 2.0);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_NEAR(J_D.row(i * 4 + j).dot(v), D.col(j).dot(J_t.middleRows(i * 2, 2) * v), 1e-15);
}

TEST(FrictionCone, TangentialImpulseIsDBetaPerContact) {
  const Eigen::MatrixXd D = friction_polygon(2, 4);
  Eigen::VectorXd beta(8);
  beta << 1, 0, 0, 0, 0, 2, 0, 2;  // contact 0: +x; contact 1: +y and -y cancel
  const Eigen::VectorXd t = tangential_impulse(D, beta);
  ASSERT_EQ(t.size(), 4);
  EXPECT_NEAR(t(0), 1.0, 1e-15);
  EXPECT_NEAR(t(1), 0.0, 1e-15);
  EXPECT_NEAR(t(2), 0.0, 1e-15);
  EXPECT_NEAR(t(3), 0.0, 1e-15);
}

}  // namespace
}  // namespace impactsim
