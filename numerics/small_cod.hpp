#pragma once
// Complete orthogonal decomposition of a small dense matrix, and its least-norm solve.
//
// A P = Q [R11 R12; 0 R22] by Householder QR with column pivoting (the column of largest remaining
// norm first, squared norms downdated with LAPACK's dlaqp2 test for cancellation); rank r counts
// the leading diagonal entries of R above `threshold` times the largest. Where r < cols,
// [R11 R12] = [T 0] Z by Householder reflections from the right (LAPACK's dtzrzf), so that solve
// gives x = P Z^T [T^-1 (Q^T b)_r; 0]: A_r^+ b, the least-norm least-squares solution for the
// rank-r part of A, as Eigen's CompleteOrthogonalDecomposition gives it with the same threshold.
// Its reflections sweep whole rows of a row-major copy of A: on the 20-row force systems of a
// frictional pile Eigen's (column pivoting cannot block, and its reflections go through general
// matrix-vector kernels) costs 1.5 times as much, its solve three times.
#include <vector>

#include <Eigen/Core>
#include <Eigen/QR>

namespace impactsim {

class SmallCod {
 public:
  // Factors A (any shape; not finite: false, rank 0, and solve gives NaN as Eigen's would).
  // Diagonal entries of R at or below threshold times the largest count as zero, and so do all
  // after the first of them.
  bool compute(const Eigen::MatrixXd& A, double threshold);
  int rank() const { return rank_; }
  int rows() const { return static_cast<int>(qr_.rows()); }
  int cols() const { return static_cast<int>(qr_.cols()); }
  // x = A_r^+ b (b of rows() entries, x of cols()). Needs a successful compute.
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const;

 private:
  // qr_ = A P, overwritten by R and the left reflections' vectors below it; rank_ from threshold.
  void factor_qr(double threshold);
  void factor_rz();  // rows [0, r) of R to [T 0] Z, Z's vectors in columns [r, cols)

  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> qr_;
  Eigen::VectorXd h_tau_, z_tau_;        // the left (Q) and right (Z) reflections' coefficients
  Eigen::VectorXd norms_, direct_norms_;  // columns' remaining squared norms: downdated, last computed
  std::vector<int> perm_;                 // column j of A P is column perm_[j] of A
  Eigen::VectorXd v_, w_;                 // scratch of the factorizations: a reflection's vector
  mutable Eigen::VectorXd c_, y_;         // scratch of solve
  int rank_ = 0;
  bool finite_ = false;  // the last compute's A was finite
};

// A least-norm factor of a force system by one of the two decompositions: Eigen's (`small` false:
// the one small models' recorded outputs were computed with) or SmallCod (the same answer to
// rounding, for large models).
class LeastNormFactor {
 public:
  void compute(const Eigen::MatrixXd& A, double threshold, bool small);
  int rank() const { return small_ ? own_.rank() : static_cast<int>(eigen_.rank()); }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const;
  Eigen::VectorXd solve(const Eigen::VectorXd& b) const;

 private:
  bool small_ = false;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> eigen_;
  SmallCod own_;
};

}  // namespace impactsim
