#include "impact/friction_cone.hpp"

#include <cmath>
#include <numbers>

namespace impactsim {

FrictionCone linearize_friction(const ContactSpace& c) {
  FrictionCone cone;
  const int m = c.contacts(), td = c.tangent_dim;
  cone.D = friction_polygon(td, c.friction_directions);
  cone.k = static_cast<int>(cone.D.cols());
  cone.J_D.resize(m * cone.k, c.M.rows());
  cone.E = Eigen::MatrixXd::Zero(m * cone.k, m);
  for (int i = 0; i < m; ++i) {
    cone.J_D.middleRows(i * cone.k, cone.k) = cone.D.transpose() * c.J_t.middleRows(i * td, td);
    cone.E.block(i * cone.k, i, cone.k, 1).setOnes();
  }
  return cone;
}

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

Eigen::VectorXd tangential_impulse(const FrictionCone& cone, const Eigen::VectorXd& lambda_D, int tangent_dim) {
  const int m = static_cast<int>(lambda_D.size()) / cone.k;
  Eigen::VectorXd out(m * tangent_dim);
  for (int i = 0; i < m; ++i) out.segment(i * tangent_dim, tangent_dim) = cone.D * lambda_D.segment(i * cone.k, cone.k);
  return out;
}

}  // namespace impactsim
