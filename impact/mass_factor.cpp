#include "impact/mass_factor.hpp"

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
// The block's columns are read down, as X is stored (a row at a time was 6 % of a pile's run).
void rows_touching(const std::vector<VelocityBlock>& blocks, const Eigen::MatrixXd& X,
                   std::vector<std::vector<int>>& rows) {
  thread_local Eigen::Array<bool, Eigen::Dynamic, 1> touches;
  rows.resize(blocks.size());
  for (size_t b = 0; b < blocks.size(); ++b) {
    rows[b].clear();
    touches.setConstant(X.rows(), false);
    for (int c = blocks[b].start; c < blocks[b].start + blocks[b].size; ++c) touches = touches || (X.col(c).array() != 0.0);
    for (Eigen::Index r = 0; r < X.rows(); ++r)
      if (touches[r]) rows[b].push_back(static_cast<int>(r));
  }
}

}  // namespace

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

void block_delassus(const MassFactor& factor, const Eigen::MatrixXd& R, const Eigen::MatrixXd& F,
                    Eigen::MatrixXd& out, Eigen::MatrixXd* Minv_FT, BlockRows* touch) {
  if (factor.rows() < kBlockwiseFrom) {
    if (Minv_FT) {
      *Minv_FT = F.transpose();
      factor.solveInPlace(*Minv_FT);
      out.noalias() = R * *Minv_FT;
    } else {
      out.noalias() = R * factor.solve(F.transpose());
    }
    return;
  }
  thread_local std::vector<std::vector<int>> r_rows, f_rows;
  thread_local Eigen::MatrixXd Fb, Rb, Y;
  const std::vector<VelocityBlock>& blocks = factor.blocks();
  out.setZero(R.rows(), F.rows());
  if (Minv_FT) Minv_FT->setZero(F.cols(), F.rows());
  rows_touching(blocks, R, r_rows);
  if (&F != &R) rows_touching(blocks, F, f_rows);  // J M^-1 J^T: one scan serves both sides
  const std::vector<std::vector<int>>& f_touch = &F == &R ? r_rows : f_rows;
  if (touch) {
    touch->R = r_rows;
    touch->F = f_touch;
  }
  for (size_t b = 0; b < blocks.size(); ++b) {
    const std::vector<int>& rr = r_rows[b];
    const std::vector<int>& fr = f_touch[b];
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

void subtract_block_rows_product(const std::vector<VelocityBlock>& blocks,
                                 const std::vector<std::vector<int>>& rows_of_block, const Eigen::MatrixXd& X,
                                 const Eigen::VectorXd& x, Eigen::VectorXd& y) {
  thread_local Eigen::VectorXd partial;
  thread_local Eigen::VectorXi current;
  const int width = product_column_block(X.cols(), X.rows());
  partial.setZero(X.rows());
  current.setConstant(X.rows(), -1);
  // Blocks ascend in columns, so each row meets its columns in ascending order.
  for (size_t b = 0; b < blocks.size(); ++b)
    for (int r : rows_of_block[b])
      for (int c = blocks[b].start; c < blocks[b].start + blocks[b].size; ++c) {
        if (c / width != current[r]) {
          y[r] -= partial[r];
          partial[r] = 0;
          current[r] = c / width;
        }
        partial[r] += X(r, c) * x[c];
      }
  y -= partial;
}

void add_block_columns_product(const std::vector<VelocityBlock>& blocks,
                               const std::vector<std::vector<int>>& cols_of_block, const Eigen::MatrixXd& Y,
                               const Eigen::VectorXd& x, Eigen::VectorXd& y) {
  const int width = product_column_block(Y.cols(), Y.rows());
  for (size_t b = 0; b < blocks.size(); ++b)
    for (int r = blocks[b].start; r < blocks[b].start + blocks[b].size; ++r) {
      double partial = 0;
      int current = -1;
      for (int c : cols_of_block[b]) {
        if (c / width != current) {
          y[r] += partial;
          partial = 0;
          current = c / width;
        }
        partial += Y(r, c) * x[c];
      }
      y[r] += partial;
    }
}

}  // namespace impactsim
