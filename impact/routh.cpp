#include "impact/routh.hpp"

#include <Eigen/Cholesky>

#include "impact/friction_cone.hpp"

namespace impactsim {
namespace {

// W of the step LCP (75b) and the pieces that map its solution back to a velocity change.
struct StepLcp {
  FrictionCone cone;
  Eigen::MatrixXd W;
  Eigen::MatrixXd Jbar;        // [J_n; J_D]
  Eigen::MatrixXd Minv_JbarT;  // M^-1 Jbar^T
  int m = 0, mk = 0;
};

StepLcp build_step_lcp(const ContactSpace& c) {
  StepLcp s;
  s.cone = linearize_friction(c);
  s.m = c.contacts();
  s.mk = s.m * s.cone.k;
  const int m = s.m, mk = s.mk, nbar = m + mk;
  s.Jbar.resize(nbar, c.M.rows());
  s.Jbar << c.J_n, s.cone.J_D;
  s.Minv_JbarT = c.M.llt().solve(s.Jbar.transpose());
  s.W = Eigen::MatrixXd::Zero(m + nbar + m, m + nbar + m);
  s.W.block(0, m, m, m) = -Eigen::MatrixXd::Identity(m, m);
  s.W.block(m, 0, m, m) = Eigen::MatrixXd::Identity(m, m);
  s.W.block(m, m, nbar, nbar) = s.Jbar * s.Minv_JbarT;
  s.W.block(2 * m, m + nbar, mk, m) = s.cone.E;
  s.W.block(m + nbar, m, m, m) = c.mu.asDiagonal();
  s.W.block(m + nbar, 2 * m, m, mk) = -s.cone.E.transpose();
  return s;
}

// One of the step LCP's solutions: Lemke's, or uniform among the distinct outcomes of all of them.
bool solve_step(const StepLcp& s, const Eigen::VectorXd& w, RouthSettings::Solution choice, Rng& rng,
                Eigen::VectorXd& z, double& residual, std::string& why) {
  if (choice == RouthSettings::Solution::random) {
    const std::vector<Eigen::VectorXd> all = enumerate_lcp_solutions(s.W, w);
    // Distinct outcomes: solutions that change v identically are one.
    std::vector<Eigen::VectorXd> outcomes, distinct;
    const double tol = 1e-9 * (1.0 + w.cwiseAbs().maxCoeff());
    for (const Eigen::VectorXd& sol : all) {
      const Eigen::VectorXd dv = s.Minv_JbarT * sol.segment(s.m, s.m + s.mk);
      bool seen = false;
      for (const auto& o : outcomes) seen = seen || (o - dv).cwiseAbs().maxCoeff() <= tol;
      if (!seen) {
        outcomes.push_back(dv);
        distinct.push_back(sol);
      }
    }
    if (distinct.empty()) {
      why = "step LCP: the enumeration found no solution";
      return false;
    }
    z = distinct[std::uniform_int_distribution<size_t>(0, distinct.size() - 1)(rng)];
    residual = lcp_residual(s.W, w, z);
    return true;
  }
  const LcpSolution sol = solve_lemke(s.W, w);
  residual = sol.residual;
  if (!sol.ok()) {
    why = "step LCP with " + std::to_string(w.size()) + " variables: " + describe(sol.status);
    return false;
  }
  z = sol.z;
  return true;
}

}  // namespace

double routh_default_step(const ContactSpace& c, const Eigen::VectorXd& v_minus) {
  const Eigen::VectorXd vn = c.J_n * v_minus;
  const Eigen::MatrixXd Minv_JnT = c.M.llt().solve(c.J_n.transpose());
  double h = 0.0;
  for (int i = 0; i < c.contacts(); ++i) h = std::max(h, -vn[i] / c.J_n.row(i).dot(Minv_JnT.col(i)));
  return h;
}

ImpactResult RouthLaw::resolve(const ContactSpace& c, const Eigen::VectorXd& v_minus, Rng& rng) const {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Eigen::MatrixXd draws(c.contacts(), settings_.max_steps);
  for (int k = 0; k < draws.size(); ++k) draws.data()[k] = 1.0 - unit(rng);  // (0, 1]: strictly positive (Lemma 13)
  return resolve_with(c, v_minus, draws, rng);
}

ImpactResult RouthLaw::resolve_with(const ContactSpace& c, const Eigen::VectorXd& v_minus, const Eigen::MatrixXd& draws,
                                    Rng& rng) const {
  const int m = c.contacts();
  ImpactResult r;
  r.kinetic_energy_minus = 0.5 * v_minus.dot(c.M * v_minus);
  r.v_plus = v_minus;
  r.impulse_n = Eigen::VectorXd::Zero(m);
  r.impulse_t = Eigen::VectorXd::Zero(m * c.tangent_dim);
  if (settings_.solution == RouthSettings::Solution::random && m > kMaxRandomContacts) {
    r.ok = false;
    r.diagnostic = "routh: the random solution choice enumerates step LCPs, for at most " +
                   std::to_string(kMaxRandomContacts) + " contacts; this impact has " + std::to_string(m);
    return r;
  }
  const StepLcp s = build_step_lcp(c);
  const double h = settings_.h > 0 ? settings_.h : routh_default_step(c, v_minus);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(s.W.rows()), z;
  Eigen::VectorXd& v = r.v_plus;
  while ((c.J_n * v).minCoeff() < -settings_.tolerance) {
    if (r.steps >= std::min<int>(settings_.max_steps, static_cast<int>(draws.cols()))) {
      r.terminated = false;
      r.ok = false;
      r.diagnostic = "routh: a contact still approaches after " + std::to_string(r.steps) + " steps (h = " +
                     std::to_string(h) + " N s); raise the step count or h";
      break;
    }
    w.head(m) = h * draws.col(r.steps);
    w.segment(m, m + s.mk) = s.Jbar * v;
    double residual = 0;
    std::string why;
    if (!solve_step(s, w, settings_.solution, rng, z, residual, why)) {
      r.ok = false;
      r.diagnostic = "routh: " + why;
      break;
    }
    const Eigen::VectorXd lambda_bar = z.segment(m, m + s.mk);
    v += s.Minv_JbarT * lambda_bar;
    r.impulse_n += lambda_bar.head(m);
    r.impulse_t += tangential_impulse(s.cone, lambda_bar.tail(s.mk), c.tangent_dim);
    r.lcp_residual = std::max(r.lcp_residual, residual);
    ++r.lcp_solves;
    ++r.steps;
  }
  r.kinetic_energy_plus = 0.5 * v.dot(c.M * v);
  return r;
}

}  // namespace impactsim
