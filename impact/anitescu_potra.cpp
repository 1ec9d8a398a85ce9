#include "impact/anitescu_potra.hpp"

#include <Eigen/Cholesky>

namespace impactsim {

AnitescuPotraLcp build_anitescu_potra_lcp(const ContactSpace& c, const Eigen::VectorXd& v_minus) {
  AnitescuPotraLcp lcp;
  lcp.cone = linearize_friction(c);
  const int m = c.contacts(), mk = m * lcp.cone.k, nbar = m + mk;
  Eigen::MatrixXd Jbar(nbar, c.M.rows());
  Jbar << c.J_n, lcp.cone.J_D;
  lcp.Minv_JbarT = c.M.llt().solve(Jbar.transpose());
  lcp.W = Eigen::MatrixXd::Zero(nbar + m, nbar + m);
  lcp.W.topLeftCorner(nbar, nbar) = Jbar * lcp.Minv_JbarT;
  lcp.W.block(m, nbar, mk, m) = lcp.cone.E;
  lcp.W.block(nbar, 0, m, m) = c.mu.asDiagonal();
  lcp.W.block(nbar, m, m, mk) = -lcp.cone.E.transpose();
  const Eigen::VectorXd vn = c.J_n * v_minus;
  lcp.w = Eigen::VectorXd::Zero(nbar + m);
  lcp.w.head(m) = vn + c.e.cwiseProduct(vn.cwiseMin(0.0));
  lcp.w.segment(m, mk) = lcp.cone.J_D * v_minus;
  return lcp;
}

ImpactResult anitescu_potra_outcome(const ContactSpace& c, const AnitescuPotraLcp& lcp,
                                    const Eigen::VectorXd& v_minus, const Eigen::VectorXd& z) {
  const int m = c.contacts(), mk = m * lcp.cone.k;
  ImpactResult r;
  r.v_plus = v_minus + lcp.Minv_JbarT * z.head(m + mk);
  r.impulse_n = z.head(m);
  r.impulse_t = tangential_impulse(lcp.cone, z.segment(m, mk), c.tangent_dim);
  r.kinetic_energy_minus = 0.5 * v_minus.dot(c.M * v_minus);
  r.kinetic_energy_plus = 0.5 * r.v_plus.dot(c.M * r.v_plus);
  r.lcp_residual = lcp_residual(lcp.W, lcp.w, z);
  return r;
}

ImpactResult AnitescuPotraLaw::resolve(const ContactSpace& c, const Eigen::VectorXd& v_minus, Rng&) const {
  const AnitescuPotraLcp lcp = build_anitescu_potra_lcp(c, v_minus);
  const LcpSolution s = solve_lemke(lcp.W, lcp.w, options_);
  ImpactResult r = anitescu_potra_outcome(c, lcp, v_minus, s.z);
  r.lcp_solves = 1;
  if (!s.ok()) {
    r.ok = false;
    r.v_plus = v_minus;
    r.diagnostic = "Anitescu-Potra LCP with " + std::to_string(lcp.w.size()) + " variables: " + describe(s.status) +
                   " (residual " + std::to_string(s.residual) + ")";
  }
  return r;
}

std::vector<ImpactResult> anitescu_potra_all_solutions(const ContactSpace& c, const Eigen::VectorXd& v_minus) {
  const AnitescuPotraLcp lcp = build_anitescu_potra_lcp(c, v_minus);
  std::vector<ImpactResult> out;
  const double tol = 1e-9 * (1.0 + v_minus.cwiseAbs().maxCoeff());
  for (const Eigen::VectorXd& z : enumerate_lcp_solutions(lcp.W, lcp.w)) {
    ImpactResult r = anitescu_potra_outcome(c, lcp, v_minus, z);
    r.lcp_solves = 1;
    bool seen = false;
    for (const ImpactResult& o : out) seen = seen || (o.v_plus - r.v_plus).cwiseAbs().maxCoeff() <= tol;
    if (!seen) out.push_back(std::move(r));
  }
  return out;
}

}  // namespace impactsim
