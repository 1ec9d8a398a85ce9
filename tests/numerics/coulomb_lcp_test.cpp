// The one Coulomb LCP builder: its block structure, and solutions that slide on the polygon's edge
// or stick inside it, against closed forms for a point mass.
#include <gtest/gtest.h>

#include <cmath>

#include "numerics/coulomb_lcp.hpp"
#include "numerics/friction_cone.hpp"
#include "numerics/lcp.hpp"

namespace impactsim {
namespace {

TEST(CoulombLcp, FrictionRowsSitWhereTheLayoutSays) {
  // Two normal rows; one friction block (k = 2) owned by normal row 1, mu = 0.7.
  CoulombLayout layout;
  layout.normals = 2;
  layout.owner = {1};
  layout.mu = Eigen::VectorXd::Constant(1, 0.7);
  layout.D = friction_polygon(1, 2);
  ASSERT_EQ(layout.polygon_size(), 4);
  const Eigen::MatrixXd W_bar = Eigen::MatrixXd::Identity(4, 4) * 3.0;
  const Eigen::VectorXd w_bar = Eigen::Vector4d(1, 2, 3, 4);
  const CoulombLcp lcp = build_coulomb_lcp(W_bar, w_bar, layout);
  ASSERT_EQ(lcp.W.rows(), 5);
  EXPECT_EQ(lcp.W.topLeftCorner(4, 4), W_bar);
  EXPECT_EQ(lcp.W(2, 4), 1.0);   // E: beta rows, gamma column
  EXPECT_EQ(lcp.W(3, 4), 1.0);
  EXPECT_EQ(lcp.W(4, 1), 0.7);   // mu of the owning normal
  EXPECT_EQ(lcp.W(4, 0), 0.0);
  EXPECT_EQ(lcp.W(4, 2), -1.0);  // -E^T
  EXPECT_EQ(lcp.W(4, 3), -1.0);
  EXPECT_EQ(lcp.W(4, 4), 0.0);
  EXPECT_EQ(lcp.w.head(4), w_bar);
  EXPECT_EQ(lcp.w(4), 0.0);
}

// A unit point mass hitting the ground at v- = (1, -1) (tangent, normal): u = f + u0 in contact space.
struct Solved {
  Eigen::VectorXd f, u;
};
Solved hit(double mu) {
  const Eigen::Matrix2d A = Eigen::Matrix2d::Identity();
  const Eigen::Vector2d u0(-1, 1);  // [u_n; u_t]
  const CoulombLayout layout = every_contact_frictional(Eigen::VectorXd::Constant(1, mu), friction_polygon(1, 2));
  const CoulombLcp lcp = build_coulomb_lcp_in_contact_space(A, u0, layout);
  const LcpSolution s = solve_lemke(lcp.W, lcp.w);
  EXPECT_TRUE(s.ok());
  const Eigen::VectorXd f = coulomb_forces(layout, s.z);
  return {f, A * f + u0};
}

TEST(CoulombLcp, SlidesOnThePolygonsEdgeWhenFrictionCannotStopIt) {
  const Solved s = hit(0.5);
  EXPECT_NEAR(s.f(0), 1.0, 1e-12);   // the normal impulse stops the approach
  EXPECT_NEAR(s.u(0), 0.0, 1e-12);
  EXPECT_NEAR(s.f(1), -0.5, 1e-12);  // friction mu f_n against the slip
  EXPECT_NEAR(s.u(1), 0.5, 1e-12);   // still sliding
}

TEST(CoulombLcp, SticksInsideThePolygonWhenItCan) {
  const Solved s = hit(2.0);
  EXPECT_NEAR(s.f(0), 1.0, 1e-12);
  EXPECT_NEAR(s.f(1), -1.0, 1e-12);  // |f_t| = 1 < mu f_n = 2
  EXPECT_NEAR(s.u(1), 0.0, 1e-12);
}

TEST(CoulombLcp, ContactSpaceFormIsThePolygonFormThroughT) {
  const Eigen::Matrix3d A = (Eigen::Matrix3d() << 2, 0.3, -0.1, 0.3, 1, 0.2, -0.1, 0.2, 1.5).finished();
  const Eigen::Vector3d u0(-0.5, 0.2, -0.4);
  const Eigen::MatrixXd D = friction_polygon(2, 4);
  const CoulombLayout layout = every_contact_frictional(Eigen::VectorXd::Constant(1, 0.4), D);
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(3, 5);
  T(0, 0) = 1;
  T.block(1, 1, 2, 4) = D;
  const CoulombLcp a = build_coulomb_lcp_in_contact_space(A, u0, layout);
  const CoulombLcp b = build_coulomb_lcp(T.transpose() * A * T, T.transpose() * u0, layout);
  EXPECT_LT((a.W - b.W).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((a.w - b.w).cwiseAbs().maxCoeff(), 1e-15);
  // Whatever Lemke picks lies in the polygon: f_t = D beta with 1^T beta <= mu f_n, so |f_t|_1 <= mu f_n.
  const LcpSolution s = solve_lemke(a.W, a.w);
  ASSERT_TRUE(s.ok());
  const Eigen::VectorXd f = coulomb_forces(layout, s.z);
  EXPECT_GE(f(0), 0.0);
  EXPECT_LE(f.tail(2).lpNorm<1>(), 0.4 * f(0) + 1e-12);
}

}  // namespace
}  // namespace impactsim
