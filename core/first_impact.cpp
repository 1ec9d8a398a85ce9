#include "core/first_impact.hpp"

#include "core/event_handling.hpp"
#include "core/hybrid.hpp"
#include "impact/anitescu_potra.hpp"

namespace impactsim {

bool impact_at(const System& sys, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, ContactSpace& space) {
  ContactData data(sys.model, sys.contacts);
  compute_contact_data(sys.model, sys.contacts, q, v, {}, data);
  const ContactSettings& settings = sys.contact;
  std::vector<int> set;
  bool approaching = false;
  for (int i = 0; i < sys.contacts.size(); ++i) {
    const double vn = data.jac.normal_velocity(i, v);
    if (data.frames[i].phi > settings.distance_tolerance) continue;  // separating ones too, as the papers
    const bool hits = vn < -settings.velocity_tolerance;
    if (hits && !simultaneous_contact(data.frames[i].phi, vn, t, settings)) continue;  // its impact comes later
    set.push_back(i);
    approaching = approaching || hits;
  }
  if (approaching) space = contact_space(sys.contacts, settings, data.body, data.jac, set);
  return approaching;
}

bool find_first_impact(const System& sys, const State& initial, ImpactState& out) {
  out.t = 0.0;
  out.q = initial.q;
  out.v_minus = initial.v;
  if (impact_at(sys, 0.0, out.q, out.v_minus, out.space)) return true;
  bool found = false, impact = false;
  RunCallbacks cb;
  // Lift-off, stick and slip events come and go; the first impact's events are logged before its
  // rows, the first of which is the state just before it.
  cb.event = [&](const Event& e) { impact = impact || is_impact(e.kind); };
  cb.event_sample = [&](const Sample& s) {
    if (found || !impact) return;
    found = true;
    out.t = s.t;
    out.q = s.q;
    out.v_minus = s.v;
  };
  cb.stop = [&] { return found; };
  Rng rng(0);
  System one_clock = sys;  // the rows at events come from one loop over every body
  one_clock.simulation.island_clocks = IslandClocks::off;
  simulate_hybrid(one_clock, AnitescuPotraLaw(), initial, rng, cb);
  return found && impact_at(sys, out.t, out.q, out.v_minus, out.space);
}

}  // namespace impactsim
