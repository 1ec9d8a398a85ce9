#include "core/sleep_loop.hpp"

#include <algorithm>

#include "core/phase.hpp"

namespace impactsim {
namespace {

Event sleep_event(EventKind kind, double t, std::vector<int> contacts, const BodyDynamics& body,
                  const Eigen::VectorXd& v_before, const Eigen::VectorXd& v_after) {
  Event e{.t = t, .kind = kind, .contacts = std::move(contacts)};
  e.kinetic_before = kinetic_energy(body, v_before);
  e.kinetic_after = kinetic_energy(body, v_after);
  return e;
}

// The accelerations of the islands' blocks at (q, v) into d.forces.vdot: their contacts' forces
// alone. d.scratch.need is left holding those contacts.
bool island_accelerations(const System& sys, LoopData& d, const IslandList& islands, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& v) {
  std::vector<int>& contacts = d.scratch.need;
  contacts.clear();
  for (const std::vector<int>& list : islands.contacts) contacts.insert(contacts.end(), list.begin(), list.end());
  std::sort(contacts.begin(), contacts.end());
  ContactData& c = d.contact;
  compute_body_dynamics(sys.model, q, v, c.body);
  compute_contact_frames(sys.contacts, c.body.kin, contacts, c.frames);
  compute_contact_jacobians(sys.model, sys.contacts, c.body.kin, c.frames, contacts, c.jac);
  compute_contact_jdot_v(sys.model, sys.contacts, c.body, c.frames, contacts, c.jac);
  return constrained_acceleration(sys.contacts, sys.contact.baumgarte, c.body, c.frames, c.jac, d.phase.modes, d.forces,
                                  &contacts);
}

}  // namespace

bool sleep_resting_islands(const System& sys, LoopData& d, double t, Eigen::VectorXd& x, const Eigen::VectorXd& rate,
                           const EventLog& log, const SampleSink& event_sample) {
  if (!d.sleep.enabled || d.phase.closed_set.empty()) return false;
  const int nq = sys.model.nq, nv = sys.model.nv;
  const double time_left = sys.simulation.t_end - t;
  ContactData& c = d.contact;
  const IslandList resting = resting_islands(sys.contact, time_left, c.body, c.jac, d.phase.closed_set, x.tail(nv),
                                             rate.tail(nv), d.sleep);
  if (resting.contacts.empty()) return false;
  d.scratch.q = x.head(nq);
  d.scratch.v = x.tail(nv);
  zero_islands(c.body.M_llt.blocks(), resting, d.scratch.v);
  if (!island_accelerations(sys, d, resting, d.scratch.q, d.scratch.v)) return false;
  const std::vector<int> asleep =
      fall_asleep(sys.contact, time_left, c.body.M_llt.blocks(), resting, d.scratch.v, d.forces.vdot, d.sleep);
  if (asleep.empty()) return false;
  d.scratch.x_before = x;
  zero_sleeping(c.body.M_llt.blocks(), d.sleep, x.tail(nv));
  log(sleep_event(EventKind::sleep, t, asleep, c.body, d.scratch.x_before.tail(nv), x.tail(nv)));
  emit(sys, d, event_sample, t, d.scratch.x_before);
  emit(sys, d, event_sample, t, x);
  awake_closed(d.phase.modes, d.sleep, d.phase.closed_set);
  return true;
}

void wake_reached_islands(const System& sys, LoopData& d, double t, const std::vector<bool>& settled, bool chosen,
                          const Eigen::VectorXd& v, const EventLog& log) {
  if (!d.sleep.any()) return;
  std::vector<bool> reached;  // empty: every island
  if (chosen && !settled.empty()) {
    reached.assign(sys.contacts.size(), false);
    for (int i = 0; i < sys.contacts.size(); ++i)
      reached[i] = d.sleep.contact_asleep(i) && (!settled[i] || !d.phase.modes.is_closed(i));
  }
  std::vector<int> woken = wake_reached(d.contact.body.M_llt.blocks(), reached, v, d.sleep);
  if (!woken.empty()) log(sleep_event(EventKind::wake, t, std::move(woken), d.contact.body, v, v));
}

void wake_all(const System& sys, LoopData& d, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
              const EventLog& log) {
  if (!d.sleep.any()) return;
  compute_body_dynamics(sys.model, q, v, d.contact.body);  // M, for the energies logged
  std::vector<int> woken = wake_reached(d.contact.body.M_llt.blocks(), {}, v, d.sleep);
  log(sleep_event(EventKind::wake, t, std::move(woken), d.contact.body, v, v));
}

}  // namespace impactsim
