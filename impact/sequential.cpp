#include "impact/sequential.hpp"

#include "impact/anitescu_potra.hpp"

namespace impactsim {
namespace {

ContactSpace single(const ContactSpace& c, int i) {
  ContactSpace s;
  s.M = c.M;
  s.J_n = c.J_n.row(i);
  s.J_t = c.J_t.middleRows(i * c.tangent_dim, c.tangent_dim);
  s.tangent_dim = c.tangent_dim;
  s.mu = c.mu.segment(i, 1);
  s.e = c.e.segment(i, 1);
  s.friction_directions = c.friction_directions;
  return s;
}

// Position of scene contact `id` within the impact, or -1.
int position(const ContactSpace& c, int id) {
  if (c.ids.empty()) return id < c.contacts() ? id : -1;
  for (size_t k = 0; k < c.ids.size(); ++k)
    if (c.ids[k] == id) return static_cast<int>(k);
  return -1;
}

}  // namespace

ImpactResult SequentialLaw::resolve(const ContactSpace& c, const Eigen::VectorXd& v_minus, Rng& rng) const {
  const int m = c.contacts();
  const AnitescuPotraLaw single_contact;
  ImpactResult r;
  r.kinetic_energy_minus = 0.5 * v_minus.dot(c.M * v_minus);
  r.v_plus = v_minus;
  r.impulse_n = Eigen::VectorXd::Zero(m);
  r.impulse_t = Eigen::VectorXd::Zero(m * c.tangent_dim);
  std::vector<int> list;
  for (int id : settings_.list)
    if (position(c, id) >= 0) list.push_back(position(c, id));
  if (list.empty())
    for (int k = 0; k < m; ++k) list.push_back(k);
  const int start = std::max(0, position(c, settings_.start));
  for (int turn = 0;; ++turn) {
    const Eigen::VectorXd vn = c.J_n * r.v_plus;
    if (vn.minCoeff() >= -settings_.tolerance) break;
    if (r.steps >= settings_.max_impacts) {
      r.ok = r.terminated = false;
      r.diagnostic = "sequential: contacts still approach after " + std::to_string(r.steps) + " single impacts";
      break;
    }
    int i = 0;
    switch (settings_.order) {
      case SequentialSettings::Order::list: i = list[turn % list.size()]; break;
      case SequentialSettings::Order::cyclic: i = (start + turn) % m; break;
      case SequentialSettings::Order::random: {
        std::vector<int> approaching;
        for (int k = 0; k < m; ++k)
          if (vn[k] < -settings_.tolerance) approaching.push_back(k);
        i = approaching[std::uniform_int_distribution<size_t>(0, approaching.size() - 1)(rng)];
        break;
      }
    }
    const ImpactResult one = single_contact.resolve(single(c, i), r.v_plus, rng);
    if (!one.ok) {
      r.ok = false;
      r.diagnostic = "sequential: " + one.diagnostic;
      break;
    }
    r.v_plus = one.v_plus;
    r.impulse_n[i] += one.impulse_n[0];
    r.impulse_t.segment(i * c.tangent_dim, c.tangent_dim) += one.impulse_t;
    r.lcp_residual = std::max(r.lcp_residual, one.lcp_residual);
    r.lcp_solves += one.lcp_solves;
    r.ordering.push_back(i);
    ++r.steps;
  }
  r.kinetic_energy_plus = 0.5 * r.v_plus.dot(c.M * r.v_plus);
  return r;
}

}  // namespace impactsim
