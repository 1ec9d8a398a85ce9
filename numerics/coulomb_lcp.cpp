#include "numerics/coulomb_lcp.hpp"

#include "numerics/friction_cone.hpp"

namespace impactsim {

CoulombLayout every_contact_frictional(const Eigen::VectorXd& mu, Eigen::MatrixXd D) {
  CoulombLayout layout;
  layout.normals = static_cast<int>(mu.size());
  layout.owner.resize(layout.normals);
  for (int i = 0; i < layout.normals; ++i) layout.owner[i] = i;
  layout.mu = mu;
  layout.D = std::move(D);
  return layout;
}

CoulombLayout frictional_contacts_only(const Eigen::VectorXd& mu, Eigen::MatrixXd D) {
  CoulombLayout layout;
  layout.normals = static_cast<int>(mu.size());
  std::vector<double> block_mu;
  for (int i = 0; i < layout.normals; ++i) {
    if (!(mu[i] > 0)) continue;
    layout.owner.push_back(i);
    block_mu.push_back(mu[i]);
  }
  layout.mu = Eigen::Map<const Eigen::VectorXd>(block_mu.data(), static_cast<Eigen::Index>(block_mu.size()));
  layout.D = std::move(D);
  return layout;
}

Eigen::MatrixXd block_tangent_rows(const CoulombLayout& layout, const Eigen::MatrixXd& J_t) {
  const int td = layout.tangent_dim();
  Eigen::MatrixXd out(layout.blocks() * td, J_t.cols());
  for (int b = 0; b < layout.blocks(); ++b) out.middleRows(b * td, td) = J_t.middleRows(layout.owner[b] * td, td);
  return out;
}

void add_block_impulses(const CoulombLayout& layout, const Eigen::Ref<const Eigen::VectorXd>& beta,
                        Eigen::VectorXd& impulse_t) {
  const int td = layout.tangent_dim(), k = layout.k();
  // The product goes through a kept vector, as the expression's own temporary would (the same
  // operations, so the same bits), without allocating per call.
  thread_local Eigen::VectorXd block;
  for (int b = 0; b < layout.blocks(); ++b) {
    block.noalias() = layout.D * beta.segment(b * k, k);
    impulse_t.segment(layout.owner[b] * td, td) += block;
  }
}

CoulombLcp build_coulomb_lcp(const Eigen::MatrixXd& W_bar, const Eigen::VectorXd& w_bar, const CoulombLayout& l) {
  CoulombLcp lcp;
  const int m = l.normals, s = l.blocks(), k = l.k(), p = l.polygon_size(), n = p + s;
  lcp.W = Eigen::MatrixXd::Zero(n, n);
  lcp.W.topLeftCorner(p, p) = W_bar;
  for (int b = 0; b < s; ++b) {
    lcp.W.block(m + b * k, p + b, k, 1).setOnes();              // E
    lcp.W(p + b, l.owner[b]) = l.mu(b);                          // mu f_n
    lcp.W.block(p + b, m + b * k, 1, k).setConstant(-1.0);     // -E^T
  }
  lcp.w = Eigen::VectorXd::Zero(n);
  lcp.w.head(p) = w_bar;
  return lcp;
}

CoulombLcp build_coulomb_lcp_in_contact_space(const Eigen::MatrixXd& A, const Eigen::VectorXd& u0,
                                              const CoulombLayout& layout) {
  const int m = layout.normals, s = layout.blocks(), td = layout.tangent_dim(), k = layout.k();
  // Without friction blocks T is the identity and T^T A T is A to the bit; the dense triple product
  // was two thirds of a frictionless 201-contact step's LCP setup (2 x 201^3 multiply-adds).
  if (s == 0) return build_coulomb_lcp(A, u0, layout);
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(m + s * td, m + s * k);
  T.topLeftCorner(m, m).setIdentity();
  for (int b = 0; b < s; ++b) T.block(m + b * td, m + b * k, td, k) = layout.D;
  return build_coulomb_lcp(T.transpose() * A * T, T.transpose() * u0, layout);
}

Eigen::VectorXd coulomb_forces(const CoulombLayout& l, const Eigen::VectorXd& z) {
  const int m = l.normals;
  Eigen::VectorXd f(m + l.blocks() * l.tangent_dim());
  f.head(m) = z.head(m);
  f.tail(l.blocks() * l.tangent_dim()) = tangential_impulse(l.D, z.segment(m, l.blocks() * l.k()));
  return f;
}

}  // namespace impactsim
