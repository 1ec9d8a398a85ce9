#include "impact/impact_law.hpp"

namespace impactsim {

MassFactor mass_factor(const ContactSpace& space) {
  MassFactor factor(space.M_blocks, static_cast<int>(space.M.rows()));
  factor.compute(space.M);
  return factor;
}

ContactSpace contact_subspace(const ContactSpace& c, const std::vector<int>& which) {
  ContactSpace s = contact_rows(c, which);
  s.M = c.M;
  s.M_blocks = c.M_blocks;
  return s;
}

ContactSpace contact_rows(const ContactSpace& c, const std::vector<int>& which) {
  const int n = static_cast<int>(which.size()), td = c.tangent_dim;
  ContactSpace s;
  s.tangent_dim = td;
  s.friction_directions = c.friction_directions;
  s.circular_cone = c.circular_cone;
  s.J_n.resize(n, c.J_n.cols());
  s.J_t.resize(n * td, c.J_t.cols());
  s.mu.resize(n);
  s.e.resize(n);
  for (int a = 0; a < n; ++a) {
    const int i = which[a];
    s.J_n.row(a) = c.J_n.row(i);
    s.J_t.middleRows(a * td, td) = c.J_t.middleRows(i * td, td);
    s.mu[a] = c.mu[i];
    s.e[a] = c.e[i];
    if (!c.ids.empty()) s.ids.push_back(c.ids[i]);
  }
  return s;
}

}  // namespace impactsim
