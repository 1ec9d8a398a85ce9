// What every LCP method shares: the residual measure, each violation relative to the size of what
// it measures; the enumeration of complementary bases; support systems; status names.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "numerics/lcp.hpp"

namespace impactsim {
namespace {

bool contains_point(const std::vector<Eigen::VectorXd>& set, const Eigen::VectorXd& z, double tol) {
  for (const auto& s : set)
    if ((s - z).cwiseAbs().maxCoeff() <= tol) return true;
  return false;
}

TEST(LcpMeasures, EnumerationFindsEverySolutionAtAComplementaryBasis) {
  Eigen::Matrix2d W;
  W << 1, 2, 2, 1;
  const auto all = enumerate_lcp_solutions(W, Eigen::Vector2d(-1, -1));
  ASSERT_EQ(all.size(), 3u);
  EXPECT_TRUE(contains_point(all, Eigen::Vector2d(1, 0), 1e-12));
  EXPECT_TRUE(contains_point(all, Eigen::Vector2d(0, 1), 1e-12));
  EXPECT_TRUE(contains_point(all, Eigen::Vector2d(1.0 / 3, 1.0 / 3), 1e-12));
  EXPECT_EQ(enumerate_lcp_solutions(W, Eigen::Vector2d(1, 1)).size(), 1u);  // z = 0 alone
}

TEST(LcpMeasures, EnumerationRefusesLargeProblems) {
  const int n = kMaxEnumeration + 1;
  EXPECT_THROW(enumerate_lcp_solutions(Eigen::MatrixXd::Identity(n, n), Eigen::VectorXd::Zero(n)),
               std::invalid_argument);
}

TEST(LcpMeasures, ResidualMeasuresEachViolation) {
  const Eigen::MatrixXd W = Eigen::MatrixXd::Identity(2, 2);
  const Eigen::Vector2d w(-1, 0);
  EXPECT_DOUBLE_EQ(lcp_residual(W, w, Eigen::Vector2d(1, 0)), 0.0);
  EXPECT_GT(lcp_residual(W, w, Eigen::Vector2d(0, 0)), 0.4);   // slack -1
  EXPECT_GT(lcp_residual(W, w, Eigen::Vector2d(1, -1)), 0.4);  // z < 0
  EXPECT_GT(lcp_residual(W, w, Eigen::Vector2d(2, 0)), 0.3);   // z s = 2, over (1 + |z|) (1 + |w|) = 6
}

TEST(LcpMeasures, ResidualIsRelativeToTheSizeOfZ) {
  // z_1 = 8192 where w = 1: its slack is off by 2^-40 (9.1e-13), a rounding of W z. Measured
  // against |w| only, z s / (1 + |w|)^2 = 1.9e-9 called that a failure; relative to |z| too it is
  // z s / ((1 + |z|) (1 + |w|)) = 4.5e-13. (Every product below is exact in binary.)
  const Eigen::Matrix2d W = Eigen::Vector2d(std::ldexp(1.0, -13), 1).asDiagonal();
  const Eigen::Vector2d w(-1, 1);
  const double z1 = 8192 * (1 + std::ldexp(1.0, -40)), s1 = std::ldexp(1.0, -40);
  const Eigen::Vector2d z(z1, 0);
  EXPECT_DOUBLE_EQ(lcp_residual(W, w, z), z1 * s1 / ((1 + z1) * 2));
  EXPECT_GT(z1 * s1 / 4, 1e-9);
  EXPECT_GT(lcp_residual(W, w, Eigen::Vector2d(8192, -1)), 1e-4);  // z < 0, relative to 1 + |z|
}

TEST(LcpMeasures, ASupportSystemIsTheRowsAndColumnsOfItsSet) {
  Eigen::Matrix3d W;
  W << 1, 2, 3, 4, 5, 6, 7, 8, 9;
  Eigen::MatrixXd Wss;
  Eigen::VectorXd rs;
  support_system(W, Eigen::Vector3d(10, 20, 30), {0, 2}, Wss, rs);
  EXPECT_EQ(Wss, (Eigen::Matrix2d() << 1, 3, 7, 9).finished());
  EXPECT_EQ(rs, Eigen::Vector2d(10, 30));
}

TEST(LcpMeasures, EveryStatusHasAName) {
  EXPECT_EQ(describe(LcpSolution::Status::solved), "solved");
  EXPECT_NE(describe(LcpSolution::Status::ray_termination).find("ray termination"), std::string::npos);
  EXPECT_NE(describe(LcpSolution::Status::pivot_limit).find("pivot limit"), std::string::npos);
  EXPECT_NE(describe(LcpSolution::Status::inaccurate).find("residual above tolerance"), std::string::npos);
}

}  // namespace
}  // namespace impactsim
