// PivotedLdlt against independent factorizations: Eigen's LLT where A is positive definite, and a
// complete orthogonal decomposition (the least-norm least-squares solution) where it is singular.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include <Eigen/QR>

#include "numerics/pivoted_ldlt.hpp"
#include "tests/numerics/random_matrix.hpp"

namespace impactsim {
namespace {

Eigen::VectorXd least_norm(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, double threshold) {
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
  cod.setThreshold(threshold);
  cod.compute(A);
  return cod.solve(b);
}

TEST(PivotedLdlt, PositiveDefiniteSystemsMatchCholesky) {
  std::mt19937 rng(3);
  for (int n : {1, 2, 7, 40, 121}) {
    const Eigen::MatrixXd B = random_rect(n, n + 3, rng);
    const Eigen::MatrixXd A = B * B.transpose();
    const Eigen::VectorXd b = random_rect(n, 1, rng);
    PivotedLdlt f;
    ASSERT_TRUE(f.compute(A, 1e-12));
    EXPECT_EQ(f.rank(), n);
    Eigen::VectorXd x;
    f.solve(b, x);
    const Eigen::VectorXd expected = A.llt().solve(b);
    EXPECT_LT((x - expected).norm(), 1e-9 * expected.norm()) << "n = " << n;
    EXPECT_LT((A * x - b).norm(), 1e-10 * (A.norm() * x.norm() + b.norm())) << "n = " << n;
  }
}

// Redundant rows (a pile's jammed contacts): A = J J^T of rank r < n. The rank is revealed, and the
// solve is the least-norm least-squares one, for right-hand sides in A's range and out of it.
TEST(PivotedLdlt, SingularSystemsGiveTheLeastNormSolution) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 10 + 6 * trial, r = n / 2 + trial % 5;
    const Eigen::MatrixXd J = random_rect(r, 3 * n, rng);
    const Eigen::MatrixXd rows = random_rect(n, r, rng) * J;  // every row a combination of r
    const Eigen::MatrixXd A = rows * rows.transpose();
    PivotedLdlt f;
    ASSERT_TRUE(f.compute(A, 1e-9));
    EXPECT_EQ(f.rank(), r) << "trial " << trial;
    for (bool in_range : {true, false}) {
      const Eigen::VectorXd b = in_range ? Eigen::VectorXd(A * random_rect(n, 1, rng)) : Eigen::VectorXd(random_rect(n, 1, rng));
      Eigen::VectorXd x;
      f.solve(b, x);
      const Eigen::VectorXd expected = least_norm(A, b, 1e-9);
      EXPECT_LT((x - expected).norm(), 1e-7 * (1 + expected.norm())) << "trial " << trial << " in range " << in_range;
      if (in_range) {
        EXPECT_LT((A * x - b).norm(), 1e-8 * b.norm());
      }
    }
  }
}

// The first rank() pivots pick rows B with A_BB nonsingular, and solve_leading inverts it: on a
// consistent singular system, x_B = A_BB^-1 b_B with zeros elsewhere solves A x = b (a basic
// solution, not the least-norm one). Without its null space the factor refuses solve.
TEST(PivotedLdlt, BasicRowsGiveABasicSolution) {
  std::mt19937 rng(9);
  for (int trial = 0; trial < 10; ++trial) {
    const int n = 12 + 5 * trial, r = n / 2 + trial % 3;
    const Eigen::MatrixXd rows = random_rect(n, r, rng) * random_rect(r, 2 * n, rng);
    const Eigen::MatrixXd A = rows * rows.transpose();
    const Eigen::VectorXd b = A * random_rect(n, 1, rng);
    PivotedLdlt f;
    ASSERT_TRUE(f.compute(A, 1e-9, false));
    ASSERT_EQ(f.rank(), r) << "trial " << trial;
    std::vector<int> B(r);
    Eigen::VectorXd y(r);
    for (int k = 0; k < r; ++k) {
      B[k] = f.pivot(k);
      y[k] = b[B[k]];
    }
    f.solve_leading(y);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
    for (int k = 0; k < r; ++k) x[B[k]] = y[k];
    EXPECT_LT((A * x - b).norm(), 1e-8 * b.norm()) << "trial " << trial;
    EXPECT_LT((A(B, B) * y - b(B)).norm(), 1e-9 * b.norm()) << "trial " << trial;
    Eigen::VectorXd z;
    EXPECT_THROW(f.solve(b, z), std::logic_error);
  }
}

// Rank decisions against the threshold: a pivot just above it is kept, just below is dropped.
TEST(PivotedLdlt, ThresholdDecidesTheRank) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(3, 3);
  A.diagonal() << 1.0, 2e-7, 5e-8;
  PivotedLdlt f;
  ASSERT_TRUE(f.compute(A, 1e-7));
  EXPECT_EQ(f.rank(), 2);  // 2e-7 / 1 kept, 5e-8 / 1 dropped
  Eigen::VectorXd x;
  f.solve(Eigen::Vector3d(1.0, 2e-7, 5e-8), x);
  EXPECT_NEAR(x[0], 1.0, 1e-15);
  EXPECT_NEAR(x[1], 1.0, 1e-9);
  EXPECT_EQ(x[2], 0.0);
}

TEST(PivotedLdlt, ZeroMatrixHasRankZeroAndSolvesToZero) {
  PivotedLdlt f;
  ASSERT_TRUE(f.compute(Eigen::MatrixXd::Zero(4, 4), 1e-7));
  EXPECT_EQ(f.rank(), 0);
  Eigen::VectorXd x;
  f.solve(Eigen::VectorXd::Ones(4), x);
  EXPECT_TRUE(x.isZero(0.0));
  ASSERT_EQ(x.size(), 4);
}

TEST(PivotedLdlt, RefusesNonSquareOrNonFiniteMatrices) {
  PivotedLdlt f;
  EXPECT_FALSE(f.compute(Eigen::MatrixXd::Identity(3, 4), 1e-7));
  Eigen::MatrixXd A = Eigen::MatrixXd::Identity(3, 3);
  A(1, 2) = A(2, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(f.compute(A, 1e-7));
}

}  // namespace
}  // namespace impactsim
