#include "core/event_handling.hpp"

#include <algorithm>

#include <Eigen/QR>

#include "core/contact_modes.hpp"
#include "core/event_locate.hpp"
#include "core/guards.hpp"
#include "core/slip_start.hpp"
#include "impact/anitescu_potra.hpp"

namespace impactsim {
namespace {

// The chosen mode must give every closed contact a pushing normal force; a slide in a Painleve
// direction can fail that even when the acceleration LCP was solvable. Judged at the acceleration
// level like the LCP, without drift correction: a touching contact 0.2 um open that the LCP leaves
// unloaded would need a pull of 1e-7 N to be drawn shut, which is numerics, not Painleve. A contact
// the LCP left unloaded at zero acceleration may go either way; where holding it shut takes a pull
// (a nearly redundant pair, such as two leaning dominoes' corners on each other, amplifies the
// LCP's rounding into one), it opens instead. Contacts that start to slide from rest in 3-D first
// get a slip consistent with the circular cone (core/slip_start.hpp). That slip is not the
// polygon's, and a loaded contact the LCP kept closed may then need a pull (a cube's edge, one end
// sliding fast on 0.4 N, the other starting to slide from rest): it lifts off if, opened, it
// accelerates away (a consistent mode); only if it would then sink is it a Painleve case.
// The islands `kept` flags (settled_contacts: the event did not reach them) are not judged again:
// their phase's guards kept their forces consistent up to the event, which changed nothing there,
// and judging them cost a pile's every event a force solve over all its resting contacts per
// slip-start iteration. `forces` then holds the others' forces alone.
bool consistent(const System& sys, const std::vector<bool>& slip_fired, ContactModes& chosen, const Eigen::VectorXd& q,
                const Eigen::VectorXd& v, ContactData& data, ModeForces& forces, std::string& why,
                const std::vector<bool>& kept) {
  std::vector<int> closed, need;
  std::vector<int> lifted;  // loaded contacts opened because the mode would pull them
  for (int round = 0; round <= sys.contacts.size(); ++round) {
    closed.clear();
    for (int i : data.near.contacts)  // closed contacts touch: they are near
      if (chosen.is_closed(i) && (kept.empty() || !kept[i])) closed.push_back(i);
    need = closed;
    need.insert(need.end(), lifted.begin(), lifted.end());  // open now, so none is in closed
    std::sort(need.begin(), need.end());
    compute_body_dynamics(sys.model, q, v, data.body);  // data.frames are choose_modes' at q
    compute_contact_jacobians(sys.model, sys.contacts, data.body.kin, data.frames, need, data.jac);
    compute_contact_jdot_v(sys.model, sys.contacts, data.body, data.frames, need, data.jac);
    hold_slow_slides(sys, data, v, chosen);  // before any force is computed: held slides keep s
    if (!start_slip_from_rest(sys, slip_fired, v, data, chosen, forces, kept.empty() ? nullptr : &closed)) {
      why = "the mass matrix is not positive definite";
      return false;
    }
    const double accel_tol = 1e-9 * (1.0 + forces.vdot.cwiseAbs().maxCoeff());
    for (int i : lifted) {
      if (data.jac.of(i).row(0).dot(forces.vdot) + data.jac.jdot_v_of(i)[0] >= -accel_tol) continue;
      why = "contact '" + sys.contacts.contact(i).name + "' would need a pulling normal force (Painleve)";
      return false;
    }
    const double tol = 1e-9 * (1.0 + forces.lambda_n.cwiseAbs().maxCoeff());
    int pulling = -1;
    for (int i : closed)
      if (forces.lambda_n[i] < -tol && (pulling < 0 || forces.lambda_n[i] < forces.lambda_n[pulling])) pulling = i;
    if (pulling < 0) return true;
    const bool unloaded = static_cast<int>(chosen.reference_n.size()) == sys.contacts.size() &&
                          chosen.reference_n[pulling] <= tol;
    if (!unloaded) lifted.push_back(pulling);
    chosen.mode[pulling] = ContactMode::open;
  }
  why = "no mode of the contacts gives pushing forces";
  return false;
}

// Mode selection counts a slip within the velocity tolerance as none (trial_modes: such a contact
// may stick, or slide from rest along the acceleration LCP's direction). In a 3-D tangent plane
// the slip left over is not harmless: a contact "sliding from rest" along s while its slip of
// 8e-7 m/s points elsewhere gets a friction direction that turns with that slip, stiff as
// 1/velocity tolerance, and the phase's forces jump where the slip crosses s's normal (a cube at
// rest on a face would alternate lift-off and touch-down of one corner at one instant).
// So the touching, non-separating frictional contacts of such slips are brought exactly to rest
// first by the Zeno rule's projection (project_to_rest); the velocity changes by about the
// tolerance. Nearly dependent rows (a pile's jammed contacts) can make its least-norm impulses
// large, and then it moves the other contacts by far more than the slips it removes (in a pile,
// sub-micrometre-per-second slips can give a fast-sliding contact an approach that sinks it into
// its neighbour before the next event). A projection that
// would move any touching contact by more than 10 velocity tolerances is not taken; those slips
// are left as they are. Planar slips are left as they are too (a planar slip has no direction to
// turn, and the paper scenes stay exact).
void rest_slow_slips(const System& sys, const ContactData& data, const std::vector<int>& candidates, Eigen::VectorXd& v) {
  const int r = data.jac.rows_per_contact;
  if (r < 3) return;
  std::vector<int> slow;
  double largest = 0.0;
  for (int i : candidates) {
    if (sys.contacts.contact(i).mu <= 0) continue;
    const Eigen::VectorXd u = data.jac.rows_times(i, 0, r, v);
    if (u.tail(r - 1).norm() > sys.contact.velocity_tolerance) continue;
    slow.push_back(i);
    largest = std::max(largest, u.cwiseAbs().maxCoeff());
  }
  if (slow.empty() || largest == 0.0) return;
  Eigen::VectorXd rested = v;
  project_to_rest(data, slow, {}, rested);
  const double limit = 10 * sys.contact.velocity_tolerance;
  for (int i : candidates)
    if ((data.jac.of(i) * (rested - v)).cwiseAbs().maxCoeff() > limit) return;
  v = rested;
}

// The acceleration LCP's solution is degenerate for a touching contact with no load that does not
// accelerate (lambda_n = 0, a_n = 0): its pivots close it as readily as they leave it open. One
// that was resting open at the surface (`resting_open`), is not approaching, and gets no load stays
// open. Else two unloaded contacts in a pile take turns: at each one's lift-off the other is
// closed again with a rounding-sized force, and lifts off when rounding takes that below zero,
// over and over until the chatter rule steps through.
// Contacts that land at the event are left to the LCP: a box landing flat keeps all four corners.
void keep_unloaded_open(const System& sys, const std::vector<bool>& resting_open, const ContactData& data,
                        const Eigen::VectorXd& v, ContactModes& chosen) {
  if (static_cast<int>(chosen.reference_n.size()) != sys.contacts.size()) return;
  double largest = 0.0;
  for (double f : chosen.reference_n) largest = std::max(largest, std::abs(f));
  const double tol = 1e-9 * (1.0 + largest);
  for (int i : data.near.contacts)  // a contact out of the near set is not touching
    if (static_cast<size_t>(i) < resting_open.size() && resting_open[i] && chosen.mode[i] != ContactMode::open &&
        chosen.reference_n[i] <= tol && data.jac.normal_velocity(i, v) >= -1e-3 * sys.contact.velocity_tolerance)
      chosen.mode[i] = ContactMode::open;
}

// The settled contacts' entries of `modes` (their islands' modes, which select_modes left open)
// back into `chosen`. Which slides are held is marked again for every contact by consistent()
// (hold_slow_slides), as for the others.
void keep_settled(const std::vector<bool>& settled, const ContactModes& modes, ContactModes& chosen) {
  for (size_t i = 0; i < settled.size(); ++i) {
    if (!settled[i]) continue;
    chosen.mode[i] = modes.mode[i];
    chosen.slip[i] = modes.slip[i];
    chosen.reference_n[i] = modes.reference_n[i];
    chosen.reference_t[i] = modes.reference_t[i];
  }
}

// The modes and slip directions of the near contacts, in near's order: what an event changes (the
// others are open before and after), kept instead of a copy of every contact's modes (a pile of 200
// bodies has 98,650 contacts, a few hundred near).
struct NearModes {
  std::vector<ContactMode> mode;
  std::vector<Eigen::Vector2d> slip;
  NearModes(const ContactModes& modes, const std::vector<int>& near) {
    for (int i : near) mode.push_back(modes.mode[i]), slip.push_back(modes.slip[i]);
  }
};

// Lift-off, stick and slip events, each listing the contacts that changed that way (only `near`
// ones can: the others are open before and after).
void log_mode_changes(double t, const NearModes& before, const ContactModes& after, double kinetic_energy,
                      const std::vector<int>& near, const EventLog& log) {
  Event liftoff{.kind = EventKind::liftoff}, stick{.kind = EventKind::stick}, slip{.kind = EventKind::slip};
  for (size_t k = 0; k < near.size(); ++k) {
    const int i = near[k];
    const ContactMode a = before.mode[k], b = after.mode[i];
    if (a != ContactMode::open && b == ContactMode::open) liftoff.contacts.push_back(i);
    if (a == ContactMode::slide && b == ContactMode::stick) stick.contacts.push_back(i);
    const bool reversed = a == ContactMode::slide && b == ContactMode::slide && before.slip[k].dot(after.slip[i]) < 0;
    if ((a == ContactMode::stick && b == ContactMode::slide) || reversed) slip.contacts.push_back(i);
  }
  for (Event* e : {&liftoff, &stick, &slip}) {
    if (e->contacts.empty()) continue;
    e->t = t;
    e->kinetic_before = e->kinetic_after = kinetic_energy;
    log(*e);
  }
}

}  // namespace

bool choose_modes(const System& sys, double t, const std::vector<FiredGuard>& fired, const std::vector<bool>& deferred,
                  Eigen::VectorXd& v, ContactModes& modes, ContactData& data, ModeForces& forces, const EventLog& log,
                  const std::vector<bool>& resting_open, const std::vector<bool>& settled, const ChoiceLimits& limits) {
  const LcpOptions& lcp = limits.lcp;
  const Eigen::VectorXd q = data.body.q;
  const NearModes before(modes, data.near.contacts);  // modes changes only when the choice is made
  std::vector<bool> kept = settled;  // cleared once an impact without collision changes v
  const auto unsettled = [&kept](std::vector<int> contacts) {
    if (!kept.empty()) std::erase_if(contacts, [&kept](int i) { return static_cast<bool>(kept[i]); });
    return contacts;
  };
  rest_slow_slips(sys, data, unsettled(touching_not_separating(sys, modes, data, deferred, v)), v);
  // A fired lift-off guard means the load reached zero; a fired slip guard means friction reached
  // the cone's edge. (A sliding contact's stick guard is its slip stopping: the LCP alone decides
  // whether it sticks or slides back.)
  ModePreference prefer{std::vector<bool>(sys.contacts.size(), false), std::vector<bool>(sys.contacts.size(), false)};
  for (const FiredGuard& f : fired) {
    const ContactMode was = modes.mode[f.contact];
    if (f.kind == GuardKind::liftoff && was != ContactMode::open) prefer.open[f.contact] = true;
    if (f.kind == GuardKind::slip && was == ContactMode::stick) prefer.slide[f.contact] = true;
  }
  // Frames depend on q alone, which no attempt changes: compute_event_data's serve every attempt.
  // The trial modes, reused from event to event: a copy that allocates would cost a pile of 200
  // bodies as much as its mode choice (4.3 MB of per-contact modes).
  thread_local ContactModes chosen;
  for (int attempt = 0;; ++attempt) {
    const std::vector<int> candidates = unsettled(touching_not_separating(sys, modes, data, deferred, v));
    if (candidates.empty() && modes.closed() == 0) break;  // free flight before and after: nothing to choose
    compute_body_dynamics(sys.model, q, v, data.body);
    const std::vector<int> need = touching_contacts(sys, modes, data, {});
    compute_contact_jacobians(sys.model, sys.contacts, data.body.kin, data.frames, need, data.jac);
    compute_contact_jdot_v(sys.model, sys.contacts, data.body, data.frames, need, data.jac);
    std::string why;
    chosen = modes;
    const bool selected = select_modes(sys.contacts, sys.contact, data.body, data.jac, candidates, prefer, chosen, why, lcp);
    if (selected) keep_settled(kept, modes, chosen);
    if (selected) keep_unloaded_open(sys, resting_open, data, v, chosen);
    if (selected && consistent(sys, prefer.slide, chosen, q, v, data, forces, why, kept)) {
      std::swap(modes, chosen);
      break;
    }
    if (attempt >= limits.impacts_without_collision) {
      if (sys.contact.painleve_step > 0) return false;
      throw SimulationError(t, StopReason::no_contact_forces, "no contact forces at t = " + format_time(t) + " s (" + why +
                                                                  "; simulation.contact.painleve_step > 0 would step through)");
    }
    // Painleve: no consistent contact forces; an impact without collision resolves it.
    // Over every touching contact, separating ones too: the jam must not leave one approaching.
    compute_contact_jacobians(sys.model, sys.contacts, data.body.kin, data.frames, need, data.jac);  // consistent() narrowed them
    kept.clear();
    if (!apply_impact_without_collision(sys, data, t, touching_contacts(sys, modes, data, deferred),
                                        touching_not_separating(sys, modes, data, deferred, v), v, log, lcp))
      return false;
  }
  log_mode_changes(t, before, modes, kinetic_energy(data.body, v), data.near.contacts, log);
  return true;
}

bool at_rest(const System& sys, const ContactModes& modes, const std::vector<bool>& closed, double t,
             const Eigen::VectorXd& q, const Eigen::VectorXd& v, ContactData& data, ModeForces& forces) {
  const double T = sys.simulation.t_end - t;
  const ContactSettings& cs = sys.contact;
  if (!cs.detect_rest || T <= 0) return false;
  // Every comparison with NaN is false: a non-finite state must not pass for rest.
  if (!q.allFinite() || !v.allFinite() || !(v.cwiseAbs().maxCoeff() * T <= cs.distance_tolerance)) return false;
  compute_contact_data(sys.model, sys.contacts, q, v, closed, data);
  if (!constrained_acceleration(sys.contacts, cs.baumgarte, data.body, data.frames, data.jac, modes, forces))
    return false;
  if (!forces.vdot.allFinite()) return false;
  const double a = forces.vdot.cwiseAbs().maxCoeff();
  return a * T <= cs.velocity_tolerance && 0.5 * a * T * T <= cs.distance_tolerance;
}

Event rest_event(double t, const ContactModes& modes, const Eigen::VectorXd& v, const ContactData& data) {
  Event e{.t = t, .kind = EventKind::rest};
  for (size_t i = 0; i < modes.mode.size(); ++i)
    if (modes.is_closed(static_cast<int>(i))) e.contacts.push_back(static_cast<int>(i));
  e.kinetic_before = e.kinetic_after = kinetic_energy(data.body, v);
  return e;
}

}  // namespace impactsim
