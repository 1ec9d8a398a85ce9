// SmallCod against Eigen's complete orthogonal decomposition and against what a least-norm
// least-squares solution is: A^T A x = A^T b, and x orthogonal to A's null space.
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include <Eigen/LU>
#include <Eigen/QR>

#include "numerics/small_cod.hpp"
#include "tests/numerics/random_matrix.hpp"

namespace impactsim {
namespace {

// rows x cols of rank `rank` (a product of random factors).
Eigen::MatrixXd of_rank(int rows, int cols, int rank, std::mt19937& rng) {
  return random_rect(rows, rank, rng) * random_rect(rank, cols, rng);
}

// Square and rectangular, full rank and not: the same rank as Eigen's decomposition with the same
// threshold, the same solution to rounding, and the properties that define it.
TEST(SmallCod, MatchesEigensDecompositionAndIsTheLeastNormSolution) {
  std::mt19937 rng(5);
  struct Case {
    int rows, cols, rank;
  };
  for (const Case c : {Case{1, 1, 1}, Case{8, 8, 8}, Case{20, 20, 17}, Case{20, 20, 10}, Case{12, 20, 9},
                       Case{20, 12, 12}, Case{20, 12, 7}, Case{60, 60, 57}}) {
    const Eigen::MatrixXd A = of_rank(c.rows, c.cols, c.rank, rng);
    const Eigen::VectorXd b = random_rect(c.rows, 1, rng);
    SmallCod own;
    ASSERT_TRUE(own.compute(A, 1e-7));
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> eigen;
    eigen.setThreshold(1e-7);
    eigen.compute(A);
    EXPECT_EQ(own.rank(), c.rank) << c.rows << "x" << c.cols;
    EXPECT_EQ(own.rank(), eigen.rank());
    Eigen::VectorXd x;
    own.solve(b, x);
    const Eigen::VectorXd expected = eigen.solve(b);
    ASSERT_EQ(x.size(), c.cols);
    EXPECT_LT((x - expected).norm(), 1e-10 * (1.0 + expected.norm())) << c.rows << "x" << c.cols;
    // Least squares: the misfit is orthogonal to A's range. Least norm: x lies in A's row space.
    const Eigen::VectorXd misfit = b - A * x;
    EXPECT_LT((A.transpose() * misfit).norm(), 1e-10 * A.norm() * b.norm());
    const Eigen::MatrixXd null_space = Eigen::FullPivLU<Eigen::MatrixXd>(A).kernel();
    if (c.rank < c.cols) {
      EXPECT_LT((null_space.transpose() * x).norm(), 1e-10 * x.norm() * null_space.norm());
    }
    // A right-hand side in A's range is met exactly.
    const Eigen::VectorXd reachable = A * random_rect(c.cols, 1, rng);
    own.solve(reachable, x);
    EXPECT_LT((A * x - reachable).norm(), 1e-10 * reachable.norm());
  }
}

// Singular values at or below the threshold (relative to the largest pivot) are rank lost; a zero
// matrix has rank 0 and solves to zero; a matrix that is not finite is refused, and solves to NaN.
TEST(SmallCod, TheThresholdDecidesTheRankAndBadInputIsRefused) {
  std::mt19937 rng(9);
  const Eigen::MatrixXd U = Eigen::HouseholderQR<Eigen::MatrixXd>(random_rect(6, 6, rng)).householderQ();
  const Eigen::MatrixXd V = Eigen::HouseholderQR<Eigen::MatrixXd>(random_rect(6, 6, rng)).householderQ();
  Eigen::VectorXd sigma(6);
  sigma << 3.0, 2.0, 1.0, 0.5, 0.25, 1e-9;
  const Eigen::MatrixXd A = U * sigma.asDiagonal() * V.transpose();
  SmallCod f;
  ASSERT_TRUE(f.compute(A, 1e-7));
  EXPECT_EQ(f.rank(), 5);
  ASSERT_TRUE(f.compute(A, 1e-12));
  EXPECT_EQ(f.rank(), 6);

  ASSERT_TRUE(f.compute(Eigen::MatrixXd::Zero(4, 3), 1e-7));
  EXPECT_EQ(f.rank(), 0);
  Eigen::VectorXd x;
  f.solve(Eigen::VectorXd::Ones(4), x);
  EXPECT_EQ(x, Eigen::VectorXd::Zero(3));

  Eigen::MatrixXd bad = A;
  bad(2, 3) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(f.compute(bad, 1e-7));
  EXPECT_EQ(f.rank(), 0);
  f.solve(Eigen::VectorXd::Ones(6), x);  // NaN of A's width, for the caller's finiteness checks
  ASSERT_EQ(x.size(), 6);
  EXPECT_TRUE(x.array().isNaN().all());
}

// LeastNormFactor: Eigen's decomposition or SmallCod, the same answer to rounding either way.
TEST(SmallCod, EitherFactorGivesTheSameForces) {
  std::mt19937 rng(11);
  const Eigen::MatrixXd A = of_rank(18, 18, 15, rng);
  const Eigen::VectorXd b = random_rect(18, 1, rng);
  LeastNormFactor own, eigen;
  own.compute(A, 1e-7, true);
  eigen.compute(A, 1e-7, false);
  EXPECT_EQ(own.rank(), 15);
  EXPECT_EQ(eigen.rank(), 15);
  Eigen::VectorXd x;
  own.solve(b, x);
  EXPECT_LT((x - eigen.solve(b)).norm(), 1e-10 * x.norm());
}

}  // namespace
}  // namespace impactsim
