#include "numerics/friction_cone.hpp"

#include <cmath>
#include <numbers>

namespace impactsim {

Eigen::MatrixXd friction_polygon(int td, int k) {
  Eigen::MatrixXd D(td, td == 1 ? 2 : k);
  if (td == 1) {
    D << 1.0, -1.0;
    return D;
  }
  for (int j = 0; j < k; ++j) {
    const double a = 2 * std::numbers::pi * j / k;
    D.col(j) << std::cos(a), std::sin(a);
  }
  return D;
}

Eigen::MatrixXd friction_rows(const Eigen::MatrixXd& J_t, const Eigen::MatrixXd& D) {
  const int td = static_cast<int>(D.rows()), k = static_cast<int>(D.cols());
  const int m = static_cast<int>(J_t.rows()) / td;
  Eigen::MatrixXd J_D(m * k, J_t.cols());
  for (int i = 0; i < m; ++i) J_D.middleRows(i * k, k) = D.transpose() * J_t.middleRows(i * td, td);
  return J_D;
}

Eigen::VectorXd tangential_impulse(const Eigen::MatrixXd& D, const Eigen::VectorXd& beta) {
  const int td = static_cast<int>(D.rows()), k = static_cast<int>(D.cols());
  const int m = static_cast<int>(beta.size()) / k;
  Eigen::VectorXd out(m * td);
  for (int i = 0; i < m; ++i) out.segment(i * td, td) = D * beta.segment(i * k, k);
  return out;
}

}  // namespace impactsim
