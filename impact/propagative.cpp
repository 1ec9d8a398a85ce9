#include "impact/propagative.hpp"

#include <cmath>
#include <numbers>

#include <Eigen/Cholesky>

#include "impact/lcp.hpp"

namespace impactsim {

ImpactResult PropagativeLaw::resolve(const ContactSpace& c, const Eigen::VectorXd& v_minus, Rng& rng) const {
  const int m = c.contacts();
  ImpactResult r;
  r.kinetic_energy_minus = 0.5 * v_minus.dot(c.M * v_minus);
  r.impulse_t = Eigen::VectorXd::Zero(m * c.tangent_dim);
  const Eigen::MatrixXd Minv_JT = c.M.llt().solve(c.J_n.transpose());
  const Eigen::MatrixXd W = c.J_n * Minv_JT;
  const Eigen::VectorXd g0 = c.J_n * v_minus;
  const double tol = settings_.tolerance * std::sqrt(2 * r.kinetic_energy_minus + 1e-300);
  const double R = settings_.R >= 0 ? settings_.R : (m ? c.e.minCoeff() : 0.0);

  // Plastic impulses: the frictionless inelastic LCP.
  const LcpSolution plastic = solve_lemke(W, g0);
  r.lcp_solves = 1;
  r.lcp_residual = plastic.residual;
  if (!plastic.ok()) {
    r.ok = false;
    r.v_plus = v_minus;
    r.impulse_n = Eigen::VectorXd::Zero(m);
    r.diagnostic = "propagative: plastic LCP: " + describe(plastic.status);
    return r;
  }

  // Elastic impulses by reflections.
  Eigen::VectorXd elastic = Eigen::VectorXd::Zero(m), g = g0;
  int cap = settings_.max_reflections;
  if (m == 2) {
    const double coupling = W(0, 1) / std::sqrt(W(0, 0) * W(1, 1));
    const double gamma = std::asin(std::sqrt(std::clamp((1 + coupling) / 2, 0.0, 1.0)));
    if (gamma > 0) cap = static_cast<int>(std::ceil(std::numbers::pi / gamma)) + 1;
  }
  bool reflected_to_feasibility = R == 0;  // a plastic impact needs no reflections
  while (!reflected_to_feasibility) {
    int pick = -1;
    double worst = 0;
    std::vector<int> violated;
    for (int i = 0; i < m; ++i) {
      const double normalized = g[i] / std::sqrt(W(i, i));
      if (normalized >= -tol) continue;
      violated.push_back(i);
      if (normalized < worst) {
        worst = normalized;
        pick = i;
      }
    }
    if (violated.empty()) {
      reflected_to_feasibility = true;
      break;
    }
    if (r.steps >= cap) break;
    if (settings_.order == PropagativeSettings::Order::random)
      pick = violated[std::uniform_int_distribution<size_t>(0, violated.size() - 1)(rng)];
    const double impulse = -2 * g[pick] / W(pick, pick);
    elastic[pick] += impulse;
    g += impulse * W.col(pick);
    r.ordering.push_back(pick);
    ++r.steps;
  }
  double weight = R;
  if (!reflected_to_feasibility) {
    weight = 0;  // fall back to plastic
    r.terminated = false;
    r.diagnostic = "propagative: no feasible momentum after " + std::to_string(r.steps) +
                   " reflections; resolved plastically instead";
  }
  r.impulse_n = weight * elastic + (1 - weight) * plastic.z;
  r.v_plus = v_minus + Minv_JT * r.impulse_n;
  r.kinetic_energy_plus = 0.5 * r.v_plus.dot(c.M * r.v_plus);
  return r;
}

}  // namespace impactsim
