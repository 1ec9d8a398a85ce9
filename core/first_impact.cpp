#include "core/first_impact.hpp"

namespace impactsim {

bool impact_at(const Model& model, const ContactModel& contacts, const ContactSettings& settings,
               const Eigen::VectorXd& q, const Eigen::VectorXd& v, ContactSpace& space) {
  ContactDynamics dyn(model, contacts, settings);
  dyn.update(q, v);
  std::vector<int> set;
  bool approaching = false;
  for (int i = 0; i < contacts.size(); ++i) {
    const double vn = dyn.J(i).row(0).dot(v);
    if (dyn.frame(i).phi > settings.distance_tolerance || vn > settings.velocity_tolerance) continue;
    set.push_back(i);
    approaching = approaching || vn < -settings.velocity_tolerance;
  }
  if (approaching) space = dyn.contact_space(set);
  return approaching;
}

bool find_first_impact(const Model& model, const ContactModel& contacts, const ImpactLaw& law,
                       const SimulationSettings& settings, const ContactSettings& contact_settings,
                       const State& initial, ImpactState& out) {
  out.t = 0.0;
  out.q = initial.q;
  out.v_minus = initial.v;
  if (impact_at(model, contacts, contact_settings, out.q, out.v_minus, out.space)) return true;
  bool found = false;
  HybridCallbacks cb;
  cb.event_sample = [&](const Sample& s) {  // the first is the state just before the first event
    if (found) return;
    found = true;
    out.t = s.t;
    out.q = s.q;
    out.v_minus = s.v;
  };
  cb.stop = [&] { return found; };
  Rng rng(0);
  simulate_hybrid(model, contacts, law, settings, contact_settings, initial, rng, cb);
  return found && impact_at(model, contacts, contact_settings, out.q, out.v_minus, out.space);
}

}  // namespace impactsim
