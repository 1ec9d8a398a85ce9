#pragma once
// Rank-revealing LDL^T of a symmetric positive semi-definite matrix, and its least-norm solve.
//
// P^T A P = L D L^T with complete diagonal pivoting: each step takes the largest diagonal entry of
// what is left (the Schur complement's), so D falls monotonically and the factorization stops
// where it reaches `threshold` times the first pivot; rank r is the number of steps taken (Higham,
// Accuracy and Stability of Numerical Algorithms, 2nd ed., §10.3; LAPACK's dpstrf). L is n x r,
// unit lower triangular in its first r rows, |L_ij| <= 1. Eigen's LDLT pivots on A's original
// diagonal (it is left-looking and never updates it), so it does not reveal rank.
//
// solve gives A_r^+ b, the least-norm least-squares solution for A_r = P L D L^T P^T: the same
// answer as a complete orthogonal decomposition with the same rank. With L = [L1; L2] (L1 r x r),
// N = P [-L1^-T L2^T; I] spans A_r's null space; A_r^+ = Pi G Pi for the projector Pi = I -
// N (N^T N)^-1 N^T onto its range and any generalized inverse G, here the one that solves the
// first r pivoted rows (L1 D L1^T) and sets the rest to zero. Where few rows are redundant (a
// jammed pile's force system: n = 121, n - r small) that costs r^2 (n - r) beyond the
// factorization, against n r^2 for the Gram matrix L^T L, and a third of the complete orthogonal
// decomposition (ColPivHouseholderQR cannot block its column pivoting).
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

namespace impactsim {

class PivotedLdlt {
 public:
  // Factors A, symmetric positive semi-definite (read by columns as given: a product such as
  // J M^-1 J^T symmetric to rounding is fine). Pivots at or below threshold times the largest
  // diagonal entry of A count as zero, and so do all after them. False if A is not square or not
  // finite.
  // null_space false: skips the null space basis, which only solve needs (solve_leading does not).
  bool compute(const Eigen::MatrixXd& A, double threshold, bool null_space = true);
  int rank() const { return rank_; }
  // D's diagonal, in pivot order (positive, at most the largest diagonal entry of A).
  Eigen::VectorBlock<const Eigen::VectorXd> pivots() const { return d_.head(rank_); }
  int size() const { return static_cast<int>(L_.rows()); }
  // x = A_r^+ b. Needs a successful compute with null_space.
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const;
  // The row of A that pivot k took (k < size()). The first rank() of them, the basic rows B, have
  // a nonsingular A_BB = L1 D L1^T.
  int pivot(int k) const { return perm_[static_cast<size_t>(k)]; }
  // y = A_BB^-1 y for y of rank() entries in pivot order. Needs a successful compute.
  void solve_leading(Eigen::Ref<Eigen::VectorXd> y) const;

 private:
  Eigen::MatrixXd L_;                 // n x n storage; columns [0, r) hold L, rows in pivoted order
  Eigen::VectorXd d_;                 // D's diagonal, first r entries
  Eigen::VectorXd trailing_;          // the Schur complement's diagonal, updated step by step
  std::vector<int> perm_;             // row k of L stands for row perm_[k] of A
  Eigen::MatrixXd N_;                     // where r < n: the null space basis [-L1^-T L2^T; I], pivoted rows
  Eigen::LLT<Eigen::MatrixXd> null_gram_;  // Cholesky factor of N^T N
  mutable Eigen::VectorXd y_, t_;         // scratch of compute and solve
  void project(Eigen::VectorXd& x) const;  // x -= N (N^T N)^-1 N^T x: onto A_r's range, pivoted rows
  int rank_ = 0;
  bool null_space_ = false;  // N_ and null_gram_ belong to the last compute
};

}  // namespace impactsim
