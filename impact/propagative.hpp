#pragma once
// Seghete and Murphey's propagative impact law (their §II-III), frictionless as in the
// paper. In contact space (W = J_n M^-1 J_n^T, g = J_n v):
// - elastic: while some contact approaches, reflect the chosen one: Lambda_i += -2 g_i / W_ii,
//   g += that * W(:, i) (the g-metric reflection Gamma(u_i), eq. (7)); kinetic energy is kept exactly.
//   At most ceil(pi / gamma) reflections for two contacts (Theorem 1), a set cap for more; past the
//   cap it falls back to plastic and says so.
// - plastic: the frictionless inelastic LCP 0 <= Lambda _|_ W Lambda + g >= 0, which is the
//   projection (11) when every multiplier is >= 0 and lets a contact separate rather than adhere
//   otherwise (the paper does not discuss that case).
// - blend with energetic restitution R (eq. (16)-(17)): Lambda = R Lambda_e + (1 - R) Lambda_p,
//   with the corrected weight alpha = R (the printed alpha = sqrt(1 - R^2) is an erratum).
#include "impact/impact_law.hpp"
#include "numerics/settings.hpp"

namespace impactsim {

struct PropagativeSettings {
  // R in [0, 1]: 1 elastic, 0 plastic. Negative: the smallest restitution e of the impact's contacts.
  double R = -1.0;
  enum class Order { most_violated, random } order = Order::most_violated;  // which violated contact reflects next
  int max_reflections = 1000;  // cap for three or more contacts (two use ceil(pi / gamma) + 1)
  double tolerance = 1e-12;    // relative to the pre-impact speed ||v-||_M
};

// A scene's simulation.propagative settings (impact/laws.hpp declares them) as the law takes them.
PropagativeSettings propagative_settings(const Settings& settings);

class PropagativeLaw : public ImpactLaw {
 public:
  explicit PropagativeLaw(PropagativeSettings settings = {}) : settings_(settings) {}
  std::string_view name() const override { return "propagative"; }
  // The plastic impulses and the contact-space metric are computed once per impact.
  std::unique_ptr<PreparedImpact> prepare(const ContactSpace& contacts, const Eigen::VectorXd& v_minus) const override;

 private:
  PropagativeSettings settings_;
};

}  // namespace impactsim
