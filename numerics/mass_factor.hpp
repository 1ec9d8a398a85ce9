#pragma once
// The Cholesky factor of a block-diagonal M, block by block. A system's M couples two velocities
// only when one joint is an ancestor of the other (Featherstone, composite-rigid-body algorithm),
// so the velocities of separate trees hanging from the world (a pile of free spheres: 6 each) form
// diagonal blocks and M^-1 costs the sum of the blocks' costs, not nv^3. The blocks are given
// (core/model.hpp's mass_blocks finds them from the model): contiguous ranges of v. Same interface
// as Eigen::LLT where the simulation and the impact laws use it.
#include <vector>

#include <Eigen/Cholesky>

namespace impactsim {

// From this many velocities on (8 free bodies), products with M^-1 go block by block
// (block_delassus), the event loop hands the laws M's blocks (ContactSpace::M_blocks), and a model
// is large: its islands choose modes, step, sleep and are solved in the cone apart. Below, one dense
// product is as fast, and sums in the order the paper scenes' recorded outputs were computed in
// (the block sums round differently in the last bits). A pile of 10 spheres (60 velocities) is
// large: its islands' own solves, sleep and cone cost less than one dense system over all its
// contacts.
constexpr int kBlockwiseFrom = 48;

// A contiguous range of v.
struct VelocityBlock {
  int start = 0, size = 0;
};

// The index of the block holding velocity `column` (blocks ordered and covering 0..nv, column in
// that range).
int block_of_column(const std::vector<VelocityBlock>& blocks, int column);

class MassFactor {
 public:
  MassFactor() = default;
  // blocks: ordered, covering 0..nv; empty: one block, all of v (a dense factor).
  MassFactor(std::vector<VelocityBlock> blocks, int nv);

  // Factors the diagonal blocks of M (its entries outside them are zero by construction). A block
  // equal to the one factored last time (a body that has not turned, a system at rest) keeps its
  // factor: the same input gives the same factor, bit for bit, without the O(n^3) work.
  void compute(const Eigen::MatrixXd& M);
  // Success when every block is numerically positive definite.
  Eigen::ComputationInfo info() const { return info_; }
  Eigen::Index rows() const { return nv_; }
  Eigen::Index cols() const { return nv_; }
  const std::vector<VelocityBlock>& blocks() const { return blocks_; }

  // X <- M^-1 X (X has nv rows).
  template <class Derived>
  void solveInPlace(Eigen::MatrixBase<Derived>& X) const {
    if (X.cols() == 0) return;  // Eigen's solve of no columns trips UndefinedBehaviorSanitizer
    for (size_t b = 0; b < blocks_.size(); ++b) {
      auto rows = X.middleRows(blocks_[b].start, blocks_[b].size);
      factors_[b].solveInPlace(rows);
    }
  }
  // X <- M_b^-1 X for block b (X has the block's size in rows).
  template <class Derived>
  void solve_block(int b, Eigen::MatrixBase<Derived>& X) const {
    factors_[b].solveInPlace(X);
  }
  template <class Derived>
  Eigen::Matrix<double, Eigen::Dynamic, Derived::ColsAtCompileTime> solve(const Eigen::MatrixBase<Derived>& B) const {
    Eigen::Matrix<double, Eigen::Dynamic, Derived::ColsAtCompileTime> X = B;
    solveInPlace(X);
    return X;
  }

 private:
  int nv_ = 0;
  std::vector<VelocityBlock> blocks_;
  std::vector<Eigen::LLT<Eigen::MatrixXd>> factors_;
  std::vector<Eigen::MatrixXd> factored_;  // each block as last factored; empty before the first
  Eigen::ComputationInfo info_ = Eigen::InvalidInput;
};

// R M^-1 F^T for rows R and F (each nv columns) whose rows touch few blocks (a contact's rows touch
// the trees of its two bodies): only blocks both rows touch contribute, so a row of 100 balls costs
// O(contacts), not O(contacts^2 nv). out is resized; rows are checked for nonzeros block by block.
// Below kBlockwiseFrom velocities it is one dense product. With Minv_FT, also M^-1 F^T (nv x F's rows), solved
// only in the blocks each row of F touches (a pile's contact touches 2 of its 50 blocks).
// From kBlockwiseFrom velocities on, touch (if given) receives the rows of R and of F that touch
// each block, ascending, as read for the product; below, it is left as it was. Given touch, Minv_FT
// there holds M^-1 F^T only in the rows of the blocks each of its columns touches (touch->F): its
// other entries are unspecified, since clearing nv x rows every call would cost more than the rows.
// Given touch, out is also cleared only where touch's lists of the last call wrote, when it has
// that call's shape: pass back the out that call gave, unchanged (not clearing a pile's W whole).
// A caller that knows which blocks each row can touch (a contact row: its two chains' columns) puts
// those lists (one per block, rows ascending) in next_R and next_F and sets `given`: block_delassus
// clears out by the last call's lists, then takes these in place of its scan of R and F (whose
// cost grows with rows x nv: a tenth of a 50-box pile's run). Given lists may name a block where a
// row is zero; such a row adds only exact zeros there.
struct BlockRows {
  std::vector<std::vector<int>> R, F;
  Eigen::Index out_rows = -1, out_cols = -1;  // the shape of the out R and F last wrote; -1: none
  std::vector<std::vector<int>> next_R, next_F;
  bool given = false;
};
void block_delassus(const MassFactor& factor, const Eigen::MatrixXd& R, const Eigen::MatrixXd& F,
                    Eigen::MatrixXd& out, Eigen::MatrixXd* Minv_FT = nullptr, BlockRows* touch = nullptr);

// Eigen 3.4's column-major matrix-vector product sums each entry in blocks of this many columns
// (its block_cols): all of them below 128 columns, else 16 where the column stride is under 4,000
// doubles. Sparse products that must equal the dense ones to the bit sum in the same blocks.
int product_column_block(Eigen::Index cols, Eigen::Index stride);

// 0.5 v^T M v [J], to the bit as 0.5 * v.dot(M * v): from kBlockwiseFrom velocities on, with M
// zero outside its diagonal `blocks` (empty: dense), M v is summed over each block's own columns in
// the order of Eigen's product. The dense product would read all of a pile's M, quadratic in its
// bodies, for every energy an event or an impact law reports.
double kinetic_energy(const Eigen::MatrixXd& M, const std::vector<VelocityBlock>& blocks, const Eigen::VectorXd& v);

// One entry of such a product, summed in Eigen's order: terms arrive in ascending columns into a
// partial sum per `width` columns; each partial joins the total (as sign * partial, so a sign of -1
// gives y -= partial to the bit) when the next block of columns starts, and value() adds the last.
class ColumnBlockSum {
 public:
  ColumnBlockSum(int width, double start, double sign = 1.0) : width_(width), sign_(sign), total_(start) {}
  void add(int column, double term) {
    if (column / width_ != current_) {
      total_ += sign_ * partial_;
      partial_ = 0;
      current_ = column / width_;
    }
    partial_ += term;
  }
  double value() const { return total_ + sign_ * partial_; }

 private:
  int width_;
  double sign_, total_, partial_ = 0;
  int current_ = -1;
};

// y -= X x for X whose row r is zero outside the blocks whose rows_of_block list r: O(nonzeros),
// not O(X's size). The sums run in the order of Eigen's column-major product (ascending columns,
// partial sums per 16 columns from 128 columns on), so the result equals y -= X x to the bit.
void subtract_block_rows_product(const std::vector<VelocityBlock>& blocks,
                                 const std::vector<std::vector<int>>& rows_of_block, const Eigen::MatrixXd& X,
                                 const Eigen::VectorXd& x, Eigen::VectorXd& y);

// y += Y x for Y (nv rows) whose column j is zero outside the blocks whose cols_of_block list j
// (M^-1 F^T as block_delassus forms it), to the bit as y += Y x.
void add_block_columns_product(const std::vector<VelocityBlock>& blocks,
                               const std::vector<std::vector<int>>& cols_of_block, const Eigen::MatrixXd& Y,
                               const Eigen::VectorXd& x, Eigen::VectorXd& y);

}  // namespace impactsim
