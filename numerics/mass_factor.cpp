#include "numerics/mass_factor.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace impactsim {
namespace {

// Whether a and b hold the same bits (0 and -0 differ), column by column.
bool same_entries(const Eigen::Block<const Eigen::MatrixXd>& a, const Eigen::MatrixXd& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  const size_t column_bytes = sizeof(double) * static_cast<size_t>(a.rows());
  for (Eigen::Index j = 0; j < a.cols(); ++j)
    if (std::memcmp(&a.coeffRef(0, j), &b.coeffRef(0, j), column_bytes) != 0) return false;
  return true;
}

// For each block, the rows of X with a nonzero entry in the block's columns (rows[b], reusing storage).
// The block's columns are read down, as X is stored, summing magnitudes: a sum of nonnegative terms
// is nonzero exactly when one of them is (NaN included), and it vectorizes where a flag test does
// not.
void rows_touching(const std::vector<VelocityBlock>& blocks, const Eigen::MatrixXd& X,
                   std::vector<std::vector<int>>& rows) {
  thread_local Eigen::VectorXd weight;
  rows.resize(blocks.size());
  for (size_t b = 0; b < blocks.size(); ++b) {
    rows[b].clear();
    weight.setZero(X.rows());
    for (int c = blocks[b].start; c < blocks[b].start + blocks[b].size; ++c) weight += X.col(c).cwiseAbs();
    for (Eigen::Index r = 0; r < X.rows(); ++r)
      if (weight[r] != 0.0) rows[b].push_back(static_cast<int>(r));
  }
}

}  // namespace

int block_of_column(const std::vector<VelocityBlock>& blocks, int column) {
  const auto after = std::upper_bound(blocks.begin(), blocks.end(), column,
                                      [](int c, const VelocityBlock& b) { return c < b.start; });
  return static_cast<int>(after - blocks.begin()) - 1;
}

MassFactor::MassFactor(std::vector<VelocityBlock> blocks, int nv) : nv_(nv), blocks_(std::move(blocks)) {
  if (blocks_.empty() && nv > 0) blocks_.push_back({0, nv});
  // Each factor starts as that of I: an Eigen::LLT made with only a size leaves its info()
  // uninitialized, and copying it (a BodyDynamics copied before its first compute) reads it.
  factors_.reserve(blocks_.size());
  for (const VelocityBlock& b : blocks_) factors_.emplace_back(Eigen::MatrixXd::Identity(b.size, b.size));
  factored_.resize(blocks_.size());
}

void MassFactor::compute(const Eigen::MatrixXd& M) {
  info_ = M.rows() == nv_ && M.cols() == nv_ ? Eigen::Success : Eigen::InvalidInput;
  for (size_t b = 0; b < blocks_.size() && info_ == Eigen::Success; ++b) {
    const VelocityBlock& k = blocks_[b];
    const auto block = M.block(k.start, k.start, k.size, k.size);
    if (!same_entries(block, factored_[b])) {
      factored_[b] = block;
      factors_[b].compute(factored_[b]);
    }
    if (factors_[b].info() != Eigen::Success) info_ = Eigen::NumericalIssue;
  }
}

namespace {

// Zeros the entries of out that the products over `written`'s lists added to.
void clear_written(const BlockRows& written, Eigen::MatrixXd& out) {
  for (size_t b = 0; b < written.R.size() && b < written.F.size(); ++b)
    for (int j : written.F[b])
      for (int i : written.R[b]) out(i, j) = 0.0;
}

}  // namespace

void block_delassus(const MassFactor& factor, const Eigen::MatrixXd& R, const Eigen::MatrixXd& F,
                    Eigen::MatrixXd& out, Eigen::MatrixXd* Minv_FT, BlockRows* touch) {
  if (factor.rows() < kBlockwiseFrom) {
    if (touch) touch->out_rows = touch->out_cols = -1;
    if (Minv_FT) {
      *Minv_FT = F.transpose();
      factor.solveInPlace(*Minv_FT);
      out.noalias() = R * *Minv_FT;
    } else {
      out.noalias() = R * factor.solve(F.transpose());
    }
    return;
  }
  thread_local BlockRows own;
  thread_local Eigen::MatrixXd Fb, Rb, Y;
  const std::vector<VelocityBlock>& blocks = factor.blocks();
  const bool shape_kept = touch && touch->out_rows == R.rows() && touch->out_cols == F.rows() &&
                          out.rows() == R.rows() && out.cols() == F.rows();
  if (shape_kept) clear_written(*touch, out);
  else out.setZero(R.rows(), F.rows());
  // With touch, the caller reads M^-1 F^T only where touch->F says: the rest need not be cleared.
  if (Minv_FT && touch) Minv_FT->resize(F.cols(), F.rows());
  else if (Minv_FT) Minv_FT->setZero(F.cols(), F.rows());
  BlockRows& rows = touch ? *touch : own;
  rows.out_rows = R.rows();
  rows.out_cols = F.rows();
  if (rows.given) {
    std::swap(rows.R, rows.next_R);
    std::swap(rows.F, rows.next_F);
    rows.given = false;
  } else {
    rows_touching(blocks, R, rows.R);
    if (&F != &R) rows_touching(blocks, F, rows.F);
    else rows.F = rows.R;  // J M^-1 J^T: one scan serves both sides
  }
  for (size_t b = 0; b < blocks.size(); ++b) {
    const std::vector<int>& rr = rows.R[b];
    const std::vector<int>& fr = rows.F[b];
    if (fr.empty() || (rr.empty() && !Minv_FT)) continue;
    const VelocityBlock& k = blocks[b];
    // Fb = M_b^-1 F_b^T over the rows that touch the block.
    Fb.resize(k.size, static_cast<Eigen::Index>(fr.size()));
    for (size_t j = 0; j < fr.size(); ++j) Fb.col(j) = F.row(fr[j]).segment(k.start, k.size).transpose();
    factor.solve_block(static_cast<int>(b), Fb);
    if (Minv_FT)
      for (size_t j = 0; j < fr.size(); ++j) Minv_FT->col(fr[j]).segment(k.start, k.size) = Fb.col(j);
    if (rr.empty()) continue;
    Rb.resize(static_cast<Eigen::Index>(rr.size()), k.size);
    for (size_t i = 0; i < rr.size(); ++i) Rb.row(i) = R.row(rr[i]).segment(k.start, k.size);
    Y.noalias() = Rb * Fb;
    for (size_t j = 0; j < fr.size(); ++j)
      for (size_t i = 0; i < rr.size(); ++i) out(rr[i], fr[j]) += Y(i, j);
  }
}

int product_column_block(Eigen::Index cols, Eigen::Index stride) {
  if (cols < 128) return static_cast<int>(cols);
  return stride * static_cast<Eigen::Index>(sizeof(double)) < 32000 ? 16 : 4;
}

double kinetic_energy(const Eigen::MatrixXd& M, const std::vector<VelocityBlock>& blocks, const Eigen::VectorXd& v) {
  if (M.cols() < kBlockwiseFrom || blocks.empty()) return 0.5 * v.dot(M * v);
  thread_local Eigen::VectorXd Mv;
  Mv.resize(v.size());
  const int width = product_column_block(M.cols(), M.outerStride());
  for (const VelocityBlock& b : blocks)
    for (int r = b.start; r < b.start + b.size; ++r) {
      ColumnBlockSum sum(width, 0.0);
      for (int c = b.start; c < b.start + b.size; ++c) sum.add(c, M(r, c) * v[c]);
      Mv[r] = sum.value();
    }
  return 0.5 * v.dot(Mv);
}

void subtract_block_rows_product(const std::vector<VelocityBlock>& blocks,
                                 const std::vector<std::vector<int>>& rows_of_block, const Eigen::MatrixXd& X,
                                 const Eigen::VectorXd& x, Eigen::VectorXd& y) {
  thread_local std::vector<ColumnBlockSum> sums;
  const int width = product_column_block(X.cols(), X.rows());
  sums.clear();
  for (Eigen::Index r = 0; r < X.rows(); ++r) sums.emplace_back(width, y[r], -1.0);
  // Blocks ascend in columns, so each row meets its columns in ascending order.
  for (size_t b = 0; b < blocks.size(); ++b)
    for (int r : rows_of_block[b])
      for (int c = blocks[b].start; c < blocks[b].start + blocks[b].size; ++c) sums[r].add(c, X(r, c) * x[c]);
  for (Eigen::Index r = 0; r < X.rows(); ++r) y[r] = sums[r].value();
}

void add_block_columns_product(const std::vector<VelocityBlock>& blocks,
                               const std::vector<std::vector<int>>& cols_of_block, const Eigen::MatrixXd& Y,
                               const Eigen::VectorXd& x, Eigen::VectorXd& y) {
  const int width = product_column_block(Y.cols(), Y.rows());
  for (size_t b = 0; b < blocks.size(); ++b)
    for (int r = blocks[b].start; r < blocks[b].start + blocks[b].size; ++r) {
      ColumnBlockSum sum(width, y[r]);
      for (int c : cols_of_block[b]) sum.add(c, Y(r, c) * x[c]);
      y[r] = sum.value();
    }
}

}  // namespace impactsim
