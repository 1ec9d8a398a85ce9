#include "impact/coulomb_lcp.hpp"

#include "impact/friction_cone.hpp"

namespace impactsim {

CoulombLcp build_coulomb_lcp(const Eigen::MatrixXd& A, const Eigen::VectorXd& u0, int tangent_dim,
                             const Eigen::VectorXd& mu, int friction_directions) {
  CoulombLcp lcp;
  lcp.td = tangent_dim;
  lcp.m = static_cast<int>(mu.size());
  lcp.D = friction_polygon(tangent_dim, friction_directions);
  lcp.k = static_cast<int>(lcp.D.cols());
  const int m = lcp.m, td = lcp.td, k = lcp.k, mk = m * k, n = m + mk + m;
  // T maps z's [f_n; beta] to f = [f_n; f_t].
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(m + m * td, m + mk);
  T.topLeftCorner(m, m).setIdentity();
  for (int i = 0; i < m; ++i) T.block(m + i * td, m + i * k, td, k) = lcp.D;
  lcp.W = Eigen::MatrixXd::Zero(n, n);
  lcp.W.topLeftCorner(m + mk, m + mk) = T.transpose() * A * T;
  lcp.w = Eigen::VectorXd::Zero(n);
  lcp.w.head(m + mk) = T.transpose() * u0;
  for (int i = 0; i < m; ++i) {
    lcp.W.block(m + i * k, m + mk + i, k, 1).setOnes();
    lcp.W(m + mk + i, i) = mu(i);
    lcp.W.block(m + mk + i, m + i * k, 1, k).setConstant(-1.0);
  }
  return lcp;
}

Eigen::VectorXd coulomb_forces(const CoulombLcp& lcp, const Eigen::VectorXd& z) {
  const int m = lcp.m, td = lcp.td, k = lcp.k;
  Eigen::VectorXd f(m + m * td);
  f.head(m) = z.head(m);
  for (int i = 0; i < m; ++i) f.segment(m + i * td, td) = lcp.D * z.segment(m + i * k, k);
  return f;
}

}  // namespace impactsim
