#include "numerics/pivoted_ldlt.hpp"

#include <numeric>
#include <stdexcept>
#include <utility>

namespace impactsim {

bool PivotedLdlt::compute(const Eigen::MatrixXd& A, double threshold, bool null_space) {
  rank_ = 0;
  null_space_ = null_space;
  const Eigen::Index n = A.rows();
  if (A.cols() != n || !A.allFinite()) {
    L_.resize(0, 0);
    return false;
  }
  L_.resize(n, n);
  d_.resize(n);
  perm_.resize(static_cast<size_t>(n));
  std::iota(perm_.begin(), perm_.end(), 0);
  y_.resize(n);  // column k's scratch is its head(k): no allocation per column
  trailing_ = A.diagonal();
  const double tol = threshold * (n > 0 ? trailing_.maxCoeff() : 0.0);
  // Left-looking (column k of L from the k before it), with the trailing diagonal kept up to date
  // for the pivot choice: one matrix-vector product per column.
  for (Eigen::Index k = 0; k < n; ++k) {
    Eigen::Index p;
    trailing_.tail(n - k).maxCoeff(&p);
    p += k;
    if (!(trailing_[p] > tol)) break;
    if (p != k) {
      std::swap(perm_[static_cast<size_t>(k)], perm_[static_cast<size_t>(p)]);
      std::swap(trailing_[k], trailing_[p]);
      L_.row(k).head(k).swap(L_.row(p).head(k));
    }
    const double dk = trailing_[k];
    const Eigen::Index m = n - k - 1;
    auto column = L_.col(k).tail(m);
    const int pk = perm_[static_cast<size_t>(k)];
    for (Eigen::Index i = 0; i < m; ++i) column[i] = A(perm_[static_cast<size_t>(k + 1 + i)], pk);
    if (k > 0) {
      auto y = y_.head(k);
      y = d_.head(k).cwiseProduct(L_.row(k).head(k).transpose());
      column.noalias() -= L_.block(k + 1, 0, m, k) * y;
    }
    column /= dk;
    L_(k, k) = 1.0;
    L_.col(k).head(k).setZero();
    d_[k] = dk;
    trailing_.tail(m) -= dk * column.cwiseAbs2();
    rank_ = static_cast<int>(k + 1);
  }
  if (null_space && rank_ < n && rank_ > 0) {
    const Eigen::Index r = rank_, z = n - r;
    N_.resize(n, z);
    N_.topRows(r) = -L_.block(r, 0, z, r).transpose();
    L_.topLeftCorner(r, r).triangularView<Eigen::UnitLower>().transpose().solveInPlace(N_.topRows(r));
    N_.bottomRows(z).setIdentity();
    null_gram_.compute(N_.transpose() * N_);
  }
  return true;
}

void PivotedLdlt::project(Eigen::VectorXd& x) const {
  t_.noalias() = N_.transpose() * x;
  null_gram_.solveInPlace(t_);
  x.noalias() -= N_ * t_;
}

void PivotedLdlt::solve_leading(Eigen::Ref<Eigen::VectorXd> y) const {
  const auto L1 = L_.topLeftCorner(rank_, rank_);
  L1.triangularView<Eigen::UnitLower>().solveInPlace(y);
  y.array() /= d_.head(rank_).array();
  L1.triangularView<Eigen::UnitLower>().transpose().solveInPlace(y);
}

void PivotedLdlt::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const {
  const Eigen::Index n = L_.rows(), r = rank_;
  x.setZero(n);
  if (r == 0) return;
  if (r < n && !null_space_) throw std::logic_error("PivotedLdlt::solve: factored without its null space");
  y_.resize(n);
  for (Eigen::Index k = 0; k < n; ++k) y_[k] = b[perm_[static_cast<size_t>(k)]];
  if (r < n) project(y_);
  // (L1 D L1^T)^-1 on the first r pivoted rows; the others are zero (r = n: A^-1 itself).
  solve_leading(y_.head(r));
  if (r < n) {
    y_.tail(n - r).setZero();
    project(y_);
  }
  for (Eigen::Index k = 0; k < n; ++k) x[perm_[static_cast<size_t>(k)]] = y_[k];
}

}  // namespace impactsim
