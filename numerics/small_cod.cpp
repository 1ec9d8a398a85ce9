#include "numerics/small_cod.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <utility>

namespace impactsim {
namespace {

// sum of x[i] y[i] over [0, n), in four interleaved sums (one sum's additions wait on each other).
double dot(const double* x, const double* y, int n) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += x[i] * y[i];
    s1 += x[i + 1] * y[i + 1];
    s2 += x[i + 2] * y[i + 2];
    s3 += x[i + 3] * y[i + 3];
  }
  for (; i < n; ++i) s0 += x[i] * y[i];
  return (s0 + s1) + (s2 + s3);
}

// y[0..n) += s x[0..n)
void axpy(double s, const double* x, double* y, int n) {
  for (int i = 0; i < n; ++i) y[i] += s * x[i];
}

// w[0..n) += sum over i in [1, rows) of v[i] times row i of a (rows `stride` apart): four rows a
// pass, so that w is loaded and stored once per four rows rather than once per row.
void accumulate_rows(const double* v, const double* a, int stride, int rows, int n, double* w) {
  int i = 1;
  for (; i + 4 <= rows; i += 4) {
    const double* r0 = a + static_cast<std::ptrdiff_t>(i) * stride;
    const double *r1 = r0 + stride, *r2 = r1 + stride, *r3 = r2 + stride;
    const double v0 = v[i], v1 = v[i + 1], v2 = v[i + 2], v3 = v[i + 3];
    for (int j = 0; j < n; ++j) w[j] += (v0 * r0[j] + v1 * r1[j]) + (v2 * r2[j] + v3 * r3[j]);
  }
  for (; i < rows; ++i) axpy(v[i], a + static_cast<std::ptrdiff_t>(i) * stride, w, n);
}

// The Householder reflection H = I - tau v v^T, v = [1; x[1..n) / (x0 - beta)], with H x = beta e1:
// the essential part of v overwrites x[1..n) and beta x[0]. A tail of zero norm gives tau = 0.
double make_householder(double* x, int n) {
  const double tail = dot(x + 1, x + 1, n - 1);
  const double c0 = x[0];
  if (tail <= std::numeric_limits<double>::min()) {
    for (int i = 1; i < n; ++i) x[i] = 0.0;
    return 0.0;
  }
  double beta = std::sqrt(c0 * c0 + tail);
  if (c0 >= 0.0) beta = -beta;
  const double scale = 1.0 / (c0 - beta);
  for (int i = 1; i < n; ++i) x[i] *= scale;
  x[0] = beta;
  return (beta - c0) / beta;
}

}  // namespace

bool SmallCod::compute(const Eigen::MatrixXd& A, double threshold) {
  rank_ = 0;
  qr_ = A;
  finite_ = A.allFinite();
  if (!finite_) return false;
  factor_qr(threshold);
  if (rank_ < cols()) factor_rz();
  return true;
}

// Rows are contiguous: a reflection from the left is two sweeps of row updates (w^T = v^T A, then
// A -= tau v w^T), where column storage would make it one short dot product per column.
void SmallCod::factor_qr(double threshold) {
  const int m = rows(), n = cols(), size = std::min(m, n);
  perm_.resize(static_cast<size_t>(n));
  std::iota(perm_.begin(), perm_.end(), 0);
  h_tau_.resize(size);
  norms_ = qr_.colwise().squaredNorm().transpose();
  direct_norms_ = norms_;
  v_.resize(m);
  w_.resize(n);
  const double downdate_floor = std::sqrt(std::numeric_limits<double>::epsilon());
  double largest = 0.0;
  for (int k = 0; k < size; ++k) {
    Eigen::Index p;
    norms_.tail(n - k).maxCoeff(&p);
    p += k;
    if (p != k) {
      qr_.col(k).swap(qr_.col(p));
      std::swap(perm_[static_cast<size_t>(k)], perm_[static_cast<size_t>(p)]);
      std::swap(norms_[k], norms_[p]);
      std::swap(direct_norms_[k], direct_norms_[p]);
    }
    const int len = m - k, right = n - k - 1;
    double* v = v_.data();
    for (int i = 0; i < len; ++i) v[i] = qr_(k + i, k);
    const double tau = make_householder(v, len);
    h_tau_[k] = tau;
    for (int i = 0; i < len; ++i) qr_(k + i, k) = v[i];
    largest = std::max(largest, std::abs(v[0]));
    if (right == 0) continue;
    if (tau != 0.0) {
      double* w = w_.data();
      std::copy_n(&qr_(k, k + 1), right, w);
      accumulate_rows(v, &qr_(k, k + 1), n, len, right, w);
      axpy(-tau, w, &qr_(k, k + 1), right);
      for (int i = 1; i < len; ++i) axpy(-tau * v[i], w, &qr_(k + i, k + 1), right);
    }
    // The columns' squared norms below row k: less the entries row k took, computed afresh where
    // that cancellation leaves too few digits (LAPACK's dlaqp2 test, squared).
    const double* row = &qr_(k, 0);
    for (int j = k + 1; j < n; ++j) {
      if (norms_[j] == 0.0) continue;
      norms_[j] -= row[j] * row[j];
      if (norms_[j] <= downdate_floor * direct_norms_[j]) {
        direct_norms_[j] = qr_.col(j).tail(m - k - 1).squaredNorm();
        norms_[j] = direct_norms_[j];
      }
    }
  }
  const double floor = threshold * largest;
  while (rank_ < size && std::abs(qr_(rank_, rank_)) > floor) ++rank_;
}

void SmallCod::factor_rz() {
  const int r = rank_, extra = cols() - r;
  z_tau_.resize(r);
  v_.resize(1 + extra);
  double* v = v_.data();
  for (int k = r - 1; k >= 0; --k) {
    // Row k's entries in column k and the columns [r, n): one reflection zeroes the latter.
    double* tail = &qr_(k, r);
    v[0] = qr_(k, k);
    std::copy_n(tail, extra, v + 1);
    const double tau = make_householder(v, 1 + extra);
    z_tau_[k] = tau;
    qr_(k, k) = v[0];
    std::copy_n(v + 1, extra, tail);
    if (tau == 0.0) continue;
    // The rows above take the same reflection from the right.
    for (int i = 0; i < k; ++i) {
      double* row_tail = &qr_(i, r);
      const double w = tau * (qr_(i, k) + dot(row_tail, v + 1, extra));
      qr_(i, k) -= w;
      axpy(-w, v + 1, row_tail, extra);
    }
  }
}

void SmallCod::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const {
  const int m = rows(), n = cols(), r = rank_;
  if (!finite_) {
    x.setConstant(n, std::numeric_limits<double>::quiet_NaN());  // the caller's finiteness checks see it
    return;
  }
  c_ = b;
  for (int k = 0; k < r; ++k) {
    if (h_tau_[k] == 0.0) continue;
    double w = c_[k];
    for (int i = k + 1; i < m; ++i) w += qr_(i, k) * c_[i];
    w *= h_tau_[k];
    c_[k] -= w;
    for (int i = k + 1; i < m; ++i) c_[i] -= w * qr_(i, k);
  }
  // T y = c over the first r rows, from the last; y is zero beyond them.
  y_.setZero(n);
  const double* a = qr_.data();  // row-major: row j's entries from column j + 1 on, by pointer
  for (int j = r - 1; j >= 0; --j)
    y_[j] = (c_[j] - dot(a + static_cast<std::ptrdiff_t>(j) * n + j + 1, y_.data() + j + 1, r - j - 1)) / qr_(j, j);
  // y = Z^T y, Z^T = H_{r-1} ... H_0 for row k's reflection H_k (on entries k and [r, n)).
  for (int k = 0; k < r && r < n; ++k) {
    const double* tail = &qr_(k, r);
    const double w = z_tau_[k] * (y_[k] + dot(tail, &y_[r], n - r));
    y_[k] -= w;
    axpy(-w, tail, &y_[r], n - r);
  }
  x.resize(n);
  for (int j = 0; j < n; ++j) x[perm_[static_cast<size_t>(j)]] = y_[j];
}

void LeastNormFactor::compute(const Eigen::MatrixXd& A, double threshold, bool small) {
  small_ = small;
  if (small) {
    own_.compute(A, threshold);
    return;
  }
  eigen_.setThreshold(threshold);
  eigen_.compute(A);
}

void LeastNormFactor::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const {
  if (small_) own_.solve(b, x);
  else x = eigen_.solve(b);
}

Eigen::VectorXd LeastNormFactor::solve(const Eigen::VectorXd& b) const {
  Eigen::VectorXd x;
  solve(b, x);
  return x;
}

}  // namespace impactsim
