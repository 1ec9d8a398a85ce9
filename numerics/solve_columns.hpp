#pragma once
// A^-1 B for a factored A (Eigen::LLT and the like), also when B has no columns: Eigen's solve then
// binds a reference to the null data pointer of the empty matrix, which UndefinedBehaviorSanitizer
// reports (a system without contacts or pins has such empty blocks).
#include <Eigen/Core>

namespace impactsim {

template <class Factor, class Rhs>
Eigen::MatrixXd solve_columns(const Factor& factor, const Rhs& B) {
  if (B.cols() == 0 || factor.rows() == 0) return Eigen::MatrixXd::Zero(factor.rows(), B.cols());
  return factor.solve(B);
}

}  // namespace impactsim
