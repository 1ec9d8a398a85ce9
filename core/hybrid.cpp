#include "core/hybrid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "core/event_handling.hpp"
#include "core/event_locate.hpp"
#include "core/chatter.hpp"
#include "core/guards.hpp"
#include "core/painleve_step.hpp"

namespace impactsim {
namespace {

// The current smooth phase: its contact modes and guards.
struct Phase {
  explicit Phase(int contacts) : modes(ContactModes::all_open(contacts)), closed(contacts, false) {}
  ContactModes modes;
  std::vector<bool> closed;       // modes.is_closed, per contact
  std::vector<int> closed_set;    // the closed contacts, ascending: what each evaluation computes (none: free flight)
  std::vector<Guard> guards;
  Eigen::VectorXd g_prev;         // the guards at the last scanned time
  std::vector<double> phi_start;  // phi at the phase's start, for the impact guards' floors (near contacts)
  bool scanned = false;           // a step of this phase was scanned without an event
};

// Vectors the loop reuses so that its per-step path does not allocate.
struct LoopScratch {
  explicit LoopScratch(const Model& model) : row_kin(model), guard_kin(model), near_kin(model), reading_kin(model) {}
  Eigen::VectorXd q, v;       // the state being evaluated, split
  Eigen::VectorXd x_tmp;      // a state interpolated on the dense output
  Eigen::VectorXd x_before;   // the state just before an event
  Eigen::VectorXd rate;       // the phase's rate at its start
  Kinematics row_kin;         // an output row's kinematics
  Kinematics guard_kin;       // the poses one impact guard is read at
  Eigen::VectorXd g_one;      // every guard, where one of them needs them all
  Eigen::VectorXd q_out, v_out;
  std::vector<int> need;      // contacts whose Jacobians a phase's start needs
  std::vector<bool> resting_open;  // open through the last phase and touching at its start (choose_modes)
  Eigen::VectorXd q_reading;  // q of the last reading of every guard (a step's start, for the near set)
  Eigen::VectorXd q_step;     // q_reading at the start of the step being scanned
  Eigen::VectorXd q_check;    // a configuration the near set is checked at
  Kinematics near_kin;        // its poses
  Kinematics reading_kin;     // the poses of q_reading or q_step
  std::vector<int> near_before, over;
};

// The loop's working data: the contact stage, the phase, scratch and the statistics. Plain data;
// the functions below say what they use.
struct LoopData {
  explicit LoopData(const System& sys)
      : contact(sys.model, sys.contacts), phase(sys.contacts.size()), scratch(sys.model) {}
  ContactData contact;
  ModeForces forces;
  Phase phase;
  LoopScratch scratch;
  std::vector<double> reach;  // each body's reach for the near set [m] (see keep_near)
  RunStats stats;
  long collisions = 0;  // impact events (approach faster than v_zeno): ChatterWatch resets on them
};

// Thrown by a reading of every guard where a body has left its near-set budget (see keep_near),
// before anything but the poses was computed there.
struct NearSetLeft {};

// phi of the near contacts through the broadphase at c.body.kin's poses, once they are known to
// keep the near set's promise (NearSetLeft if not).
void open_contact_phi(const System& sys, ContactData& c) {
  if (!c.broadphase.holds(c.near, c.body.kin.R, c.body.kin.p, 1.0)) throw NearSetLeft{};
  c.broadphase.update(sys.contacts, sys.contact.broadphase_margin, c.body.kin.R, c.body.kin.p, c.near, c.frames);
}

// The contact stage for the phase's forces at (q, v) in d.scratch: body dynamics, then the frames,
// J and Jdot v of the closed contacts only (a pile has hundreds of pairs, a few dozen closed). With
// open_phi, first every contact's phi through the broadphase (exact near contact, a lower bound far
// away), for the open contacts' impact guards.
void closed_contact_data(const System& sys, LoopData& d, bool open_phi) {
  ContactData& c = d.contact;
  compute_body_dynamics(sys.model, d.scratch.q, d.scratch.v, c.body);
  if (open_phi) open_contact_phi(sys, c);
  compute_contact_frames(sys.contacts, c.body.kin, d.phase.closed_set, c.frames);
  compute_contact_jacobians(sys.model, sys.contacts, c.body.kin, c.frames, d.phase.closed_set, c.jac);
  compute_contact_jdot_v(sys.model, sys.contacts, c.body, c.frames, d.phase.closed_set, c.jac);
}

// The phase's rate at the state in d.scratch (q, v), once d.forces holds the mode's forces there:
// qdot = Gamma(q) v, vdot from the forces. dx has the state's size.
void phase_rate(const System& sys, const LoopData& d, Eigen::VectorXd& dx) {
  configuration_rate(sys.model, d.scratch.q, d.scratch.v, dx.data());
  dx.tail(sys.model.nv) = d.forces.vdot;
}

// The phase's ODE.
bool phase_rhs(const System& sys, LoopData& d, const Eigen::VectorXd& x, Eigen::VectorXd& dx) {
  d.scratch.q = x.head(sys.model.nq);
  d.scratch.v = x.tail(sys.model.nv);
  ContactData& c = d.contact;
  if (!d.phase.closed_set.empty()) closed_contact_data(sys, d, false);
  else compute_body_dynamics(sys.model, d.scratch.q, d.scratch.v, c.body);  // free flight needs no contact frames
  if (!constrained_acceleration(sys.contacts, sys.contact.baumgarte, c.body, c.frames, c.jac, d.phase.modes, d.forces,
                                &d.phase.closed_set))
    return false;
  phase_rate(sys, d, dx);
  return true;
}

// What the guards read at state x (see core/guards.hpp): phi through the broadphase, and while
// contacts are closed their exact frames and the mode's forces. Returns whether d.forces holds
// the mode's forces at x: false in free flight, and where they cannot be found.
bool guard_data_at_state(const System& sys, LoopData& d, const Eigen::VectorXd& x) {
  d.scratch.q = x.head(sys.model.nq);
  d.scratch.v = x.tail(sys.model.nv);
  d.scratch.q_reading = d.scratch.q;
  ContactData& c = d.contact;
  if (d.phase.closed_set.empty()) {
    update_kinematics(sys.model, d.scratch.q, c.body.kin);  // only phi is needed
    open_contact_phi(sys, c);
    return false;
  }
  closed_contact_data(sys, d, true);
  return constrained_acceleration(sys.contacts, sys.contact.baumgarte, c.body, c.frames, c.jac, d.phase.modes, d.forces,
                                  &d.phase.closed_set);
}

// The phase's guards from what guard_data_at_state left in d.
void evaluate_phase_guards(const System& sys, LoopData& d, Eigen::VectorXd& g) {
  const ContactData& c = d.contact;
  evaluate_guards(sys.contacts, d.phase.modes, d.phase.guards, {c.body.kin, c.frames, c.jac, d.scratch.v, d.forces}, g);
}

// The guards' values at state x.
void guards_at_state(const System& sys, LoopData& d, const Eigen::VectorXd& x, Eigen::VectorXd& g) {
  guard_data_at_state(sys, d, x);
  evaluate_phase_guards(sys, d, g);
}

// Guard k alone at state x, guards_at_state's g[k] to the bit: an impact guard of an ungated contact
// from the poses and its one phi (through the broadphase, as guards_at_state reads it), any other
// guard from them all (its forces need the whole contact stage).
double guard_at_state(const System& sys, LoopData& d, const Eigen::VectorXd& x, int k) {
  const Guard& guard = d.phase.guards[static_cast<size_t>(k)];
  if (guard.kind != GuardKind::impact || gated(sys.contacts, guard.contact)) {
    guards_at_state(sys, d, x, d.scratch.g_one);
    return d.scratch.g_one[k];
  }
  d.scratch.q = x.head(sys.model.nq);
  Kinematics& kin = d.scratch.guard_kin;
  update_kinematics(sys.model, d.scratch.q, kin);
  const double phi = d.contact.broadphase.phi(sys.contacts, sys.contact.broadphase_margin, kin.R, kin.p, guard.contact);
  return phi - guard.floor;
}

// The deepest penetration so far, at the poses in kin (gated contacts pass through by design). A
// contact whose broadphase bound on phi is clear above it cannot lower it and is not measured; nor
// is one the near set leaves out while its promise holds (its bound is above the margin, and
// min_phi is never above 0).
void record_min_phi(const System& sys, const ContactData& c, const Kinematics& kin, RunStats& stats) {
  constexpr double kBoundSlack = 1e-9;  // [m] the bound's rounding, where it is phi's own formula (two spheres)
  const auto measure = [&](int i) {
    if (gated(sys.contacts, i) || c.broadphase.bound(sys.contacts, kin.R, kin.p, i) > stats.min_phi + kBoundSlack) return;
    stats.min_phi = std::min(stats.min_phi, sys.contacts.frame(kin.R, kin.p, i).phi);
  };
  if (c.broadphase.holds(c.near, kin.R, kin.p, 1.0)) {
    for (int i : c.near.contacts) measure(i);
  } else {
    for (int i = 0; i < sys.contacts.size(); ++i) measure(i);
  }
}

void emit(const System& sys, LoopData& d, const SampleSink& sink, double t, const Eigen::VectorXd& x) {
  if (!sink) return;
  d.scratch.q_out = x.head(sys.model.nq);
  d.scratch.v_out = x.tail(sys.model.nv);
  normalize_configuration(sys.model, d.scratch.q_out.data());
  update_kinematics(sys.model, d.scratch.q_out, d.scratch.row_kin);
  update_velocities(sys.model, d.scratch.q_out, d.scratch.v_out, d.scratch.row_kin);
  const Kinematics& kin = d.scratch.row_kin;
  sink(Sample{t, d.scratch.q_out, d.scratch.v_out, kinetic_energy(sys.model, kin), potential_energy(sys.model, kin)});
  ++d.stats.samples;
  record_min_phi(sys, d.contact, d.scratch.row_kin, d.stats);
}

void track_penetration(const System& sys, LoopData& d, const Eigen::VectorXd& x) {
  d.scratch.q_out = x.head(sys.model.nq);
  update_kinematics(sys.model, d.scratch.q_out, d.scratch.row_kin);
  record_min_phi(sys, d.contact, d.scratch.row_kin, d.stats);
}

// The near set selected afresh at the poses kin, every body's reach the horizon
// (simulation.contact.broadphase_horizon; 0 follows every contact). Only where a phase starts: a
// contact that leaves the set loses its guards.
void narrow(const System& sys, LoopData& d, const Kinematics& kin) {
  if (!(sys.contact.broadphase_horizon > 0)) return;
  d.reach.assign(sys.model.bodies.size(), sys.contact.broadphase_horizon);
  d.contact.broadphase.select_near(sys.contacts, event_margin(sys.contact), d.reach, kin.R, kin.p, false, d.contact.near);
}

// The guards of the contacts the near set gained since d.scratch.near_before, inserted in contact
// order, each with its value at the poses kin (the reading g_prev holds) in g_prev. Such a contact
// was left out since its phase started, so every guard of the whole set would have read it far
// (phi its positive bound above the margin): open, floored at -kPhiMargin, not bounced nor
// passing (gated contacts are always near), armed at the phase's first reading, risen once a step
// was scanned. So it reads what it would have read had it been followed all along.
void follow_added(const System& sys, LoopData& d, const Kinematics& kin) {
  std::vector<int> added;
  const std::vector<int>& before = d.scratch.near_before;
  const std::vector<int>& now = d.contact.near.contacts;
  std::set_difference(now.begin(), now.end(), before.begin(), before.end(), std::back_inserter(added));
  if (added.empty()) return;
  Phase& ph = d.phase;
  std::vector<Guard> guards;
  guards.reserve(ph.guards.size() + added.size());
  Eigen::VectorXd g(static_cast<Eigen::Index>(ph.guards.size() + added.size()));
  Eigen::Index n = 0;
  size_t a = 0;
  const auto follow = [&](int i) {
    Guard guard{i, GuardKind::impact};
    guard.floor = -kPhiMargin;
    guard.armed = true;
    guard.risen = ph.scanned;
    const double phi = d.contact.broadphase.phi(sys.contacts, sys.contact.broadphase_margin, kin.R, kin.p, i);
    ph.phi_start[static_cast<size_t>(i)] = phi;  // far at the start, as at every reading since
    guards.push_back(guard);
    g[n++] = phi - guard.floor;
  };
  for (size_t k = 0; k < ph.guards.size(); ++k) {
    for (; a < added.size() && added[a] < ph.guards[k].contact; ++a) follow(added[a]);
    guards.push_back(ph.guards[k]);
    g[n++] = ph.g_prev[static_cast<Eigen::Index>(k)];
  }
  for (; a < added.size(); ++a) follow(added[a]);
  ph.guards.swap(guards);
  ph.g_prev.swap(g);
}

// Every contact followed from the start of the step being scanned (whose q is d.scratch.q_step):
// where a reading found a body beyond its budget after all.
void follow_everything(const System& sys, LoopData& d) {
  d.scratch.near_before = d.contact.near.contacts;
  d.contact.near = d.contact.broadphase.everything(sys.contacts);
  update_kinematics(sys.model, d.scratch.q_step, d.scratch.reading_kin);
  follow_added(sys, d, d.scratch.reading_kin);
}

// The near set's promise (collision/broadphase.hpp) must hold at every reading of a step's guards:
// a reading where it does not throws NearSetLeft, and the step is read again with every contact
// (follow_everything). So before they are read, every body must be within kEndFraction of its
// budget at the step's end, which leaves the readings inside the step room to spare. Where a body
// is not, the set grows from the step's start, selected at the poses of its last reading
// (q_reading, which g_prev holds), with the reaches of the bodies that still go too far raised
// fourfold until they do not; after kWidenings, every contact is followed. The contacts it gains
// get their guards (follow_added); none is lost before the phase ends.
constexpr double kEndFraction = 0.5;
constexpr int kWidenings = 6;

template <class StateAt>
void keep_near(const System& sys, LoopData& d, double t1, const StateAt& state_at) {
  ContactData& c = d.contact;
  if (c.near.all) return;
  d.scratch.q_check = state_at(t1).head(sys.model.nq);
  update_kinematics(sys.model, d.scratch.q_check, d.scratch.near_kin);
  const Kinematics& end = d.scratch.near_kin;
  if (c.broadphase.holds(c.near, end.R, end.p, kEndFraction)) return;
  d.scratch.near_before = c.near.contacts;
  update_kinematics(sys.model, d.scratch.q_reading, d.scratch.reading_kin);
  const Kinematics& start = d.scratch.reading_kin;
  for (int round = 0;; ++round) {
    c.broadphase.select_near(sys.contacts, event_margin(sys.contact), d.reach, start.R, start.p, true, c.near);
    std::vector<int>& over = d.scratch.over;
    over.clear();
    if (c.broadphase.holds(c.near, end.R, end.p, kEndFraction, &over)) break;
    if (round == kWidenings) {
      c.near = c.broadphase.everything(sys.contacts);
      break;
    }
    for (int b : over) d.reach[static_cast<size_t>(b)] *= 4;
  }
  follow_added(sys, d, start);
}

// Smallest over largest eigenvalue of M(q) below which a collapsing step is blamed on M.
constexpr double kNearlySingularMass = 1e-10;

// M(q) at the state x is nearly singular (a compass gait doing the splits: its two point masses
// in line with the hip); a step that collapses there comes from the model's configuration.
bool nearly_singular_mass(const Model& model, const Eigen::VectorXd& x, MassMatrixCheck* check = nullptr) {
  const Eigen::VectorXd q = x.head(model.nq);
  if (!q.allFinite()) return false;
  const MassMatrixCheck m = check_mass_matrix(model, q);
  if (check) *check = m;
  return m.conditioning < kNearlySingularMass && m.weakest >= 0;
}

[[noreturn]] void fail(const Model& model, const Dopri5& ode, Dopri5::Status status) {
  const auto [reason, why] =
      status == Dopri5::Status::rhs_failed       ? std::pair{StopReason::singular_mass, "the mass matrix is not positive definite"}
      : status == Dopri5::Status::step_underflow ? std::pair{StopReason::step_underflow, "the step size fell below machine precision"}
                                                 : std::pair{StopReason::not_finite, "the state is not finite"};
  std::string message = "integration stopped at t = " + format_time(ode.t()) + " s: " + why;
  MassMatrixCheck m;
  if (status == Dopri5::Status::step_underflow && nearly_singular_mass(model, ode.y(), &m))
    message += "; there M(q) is nearly singular (smallest over largest eigenvalue " + format_time(m.conditioning) +
               ", the weakest direction mostly '" + model.v_names[m.weakest] + "')";
  throw SimulationError(ode.t(), reason, message);
}

// Counts, checks the event budget, and hands the event to the callback.
EventLog event_log(const System& sys, LoopData& d, const RunCallbacks& cb) {
  return [&sys, &d, &cb](const Event& e) {
    if (is_impact(e.kind)) ++d.stats.impacts;
    if (e.kind == EventKind::impact) ++d.collisions;
    if (++d.stats.events > sys.contact.max_events)
      throw SimulationError(e.t, StopReason::event_limit, "more than " + std::to_string(sys.contact.max_events) + " events by t = " +
                                     format_time(e.t) + " s; if impacts accumulate (Zeno), raise simulation.contact.v_zeno");
    if (cb.event) cb.event(e);
  };
}

// An event at (t, x): impacts, then the next phase's modes; x's velocity is updated. Rows just
// before and just after are written only when something was logged. False where no contact
// modes are consistent (choose_modes): the caller steps through.
bool handle_event(const System& sys, const ImpactLaw& law, Rng& rng, const RunCallbacks& cb, const EventLog& log,
                  LoopData& d, double t, Eigen::VectorXd& x, const std::vector<FiredGuard>& fired) {
  d.scratch.x_before = x;
  const long logged = d.stats.events;
  d.scratch.q = x.head(sys.model.nq);
  d.scratch.v = x.tail(sys.model.nv);
  ContactData& c = d.contact;
  compute_event_data(sys, d.phase.modes, d.scratch.q, d.scratch.v, c);
  const std::vector<bool> deferred = deferred_contacts(sys, d.phase.modes, c, d.scratch.v, t);
  resolve_impacts(sys, law, rng, t, d.phase.modes, deferred, d.scratch.v, c, log);
  std::vector<bool>& resting_open = d.scratch.resting_open;
  resting_open.assign(sys.contacts.size(), false);
  for (int i : c.near.contacts)  // phi_start holds the near set's, which only grows within a phase
    resting_open[i] = d.phase.modes.mode[i] == ContactMode::open && i < static_cast<int>(d.phase.phi_start.size()) &&
                      d.phase.phi_start[i] <= sys.contact.distance_tolerance;
  const bool chosen = choose_modes(sys, t, fired, deferred, d.scratch.v, d.phase.modes, c, d.forces, log, resting_open);
  if (!chosen) d.phase.modes = ContactModes::all_open(sys.contacts.size());
  closed_flags(d.phase.modes, d.phase.closed);
  closed_list(d.phase.modes, d.phase.closed_set);
  x.tail(sys.model.nv) = d.scratch.v;
  if (d.stats.events == logged) return chosen;
  emit(sys, d, cb.event_sample, t, d.scratch.x_before);
  emit(sys, d, cb.event_sample, t, x);
  return chosen;
}

// One Painleve step from (t, x) (core/painleve_step.hpp), no further than t_end: logged, with the
// rows of the output times it passes (x linear on the step, as the time-stepping integrator
// reports them); t and x move to its end.
void step_through(const System& sys, const RunCallbacks& cb, const EventLog& log, LoopData& d, double& t,
                  Eigen::VectorXd& x, long& next, long last) {
  const SimulationSettings& settings = sys.simulation;
  const int nq = sys.model.nq, nv = sys.model.nv;
  d.scratch.q = x.head(nq);
  d.scratch.v = x.tail(nv);
  // The step moves every body without reading guards: every contact is followed through it, and
  // the near set is selected again at its end.
  if (!d.contact.near.all) d.contact.near = d.contact.broadphase.everything(sys.contacts);
  const double h = std::min(sys.contact.painleve_step, settings.t_end - t);
  const PainleveStep s = painleve_step(sys, d.scratch.q, d.scratch.v, h, d.contact);
  if (!s.ok)
    throw SimulationError(t, StopReason::no_contact_forces,
                          "at t = " + format_time(t) + " s the event loop had to step through (no consistent contact modes, "
                          "or guards firing again and again), and the step failed: " + s.diagnostic);
  log(painleve_step_event(t, s, d.scratch.v, d.contact));
  d.scratch.x_before = x;
  x << s.q1, s.v1;
  const double t1 = t + s.h;
  emit(sys, d, cb.event_sample, t, d.scratch.x_before);
  for (; next <= last && output_time(settings, next) <= t1; ++next) {
    const double u = (output_time(settings, next) - t) / s.h;
    d.scratch.x_tmp = (1 - u) * d.scratch.x_before + u * x;
    d.scratch.x_tmp.tail(nv) = s.v1;
    normalize_configuration(sys.model, d.scratch.x_tmp.data());
    emit(sys, d, cb.sample, output_time(settings, next), d.scratch.x_tmp);
  }
  emit(sys, d, cb.event_sample, t1, x);
  track_penetration(sys, d, x);
  narrow(sys, d, d.scratch.row_kin);  // track_penetration's poses of x
  t = t1;
}

// Open contacts that touch at the phase's start and separate faster than the velocity tolerance
// have bounced: their next impact is placed back at the level they left (core/guards.hpp). A
// contact that merely lifted off (starting at rest) keeps the margin's crossing, or its
// micro-hops at the edge of lift-off would each be an event. kin and frames: at the start (poses).
void mark_bounced(const System& sys, LoopData& d, const Kinematics& kin, const std::vector<ContactFrame>& frames,
                  const Eigen::VectorXd& x) {
  const auto starts_touching = [&](const Guard& g) {
    return g.kind == GuardKind::impact && std::abs(d.phase.phi_start[g.contact]) <= sys.contact.distance_tolerance;
  };
  std::vector<int>& need = d.scratch.need;  // ascending: guards come in contact order, one impact guard each
  need.clear();
  for (const Guard& g : d.phase.guards)
    if (starts_touching(g)) need.push_back(g.contact);
  if (need.empty()) return;
  ContactJacobians& jac = d.contact.jac;
  compute_contact_jacobians(sys.model, sys.contacts, kin, frames, need, jac);
  const auto v = x.tail(sys.model.nv);
  for (Guard& g : d.phase.guards)
    g.bounced = starts_touching(g) && jac.normal_velocity(g.contact, v) > sys.contact.velocity_tolerance;
}

// A new phase from (t, x): the guards of the current modes are set up (floors from phi at the
// start) and evaluated, those already positive are armed, and the integrator restarts there.
void start_phase(const System& sys, LoopData& d, Dopri5& ode, double t, const Eigen::VectorXd& x) {
  d.scratch.q_out = x.head(sys.model.nq);
  update_kinematics(sys.model, d.scratch.q_out, d.scratch.row_kin);
  d.phase.phi_start.resize(sys.contacts.size());
  d.phase.scanned = false;
  const Kinematics& kin = d.scratch.row_kin;
  narrow(sys, d, kin);
  std::vector<ContactFrame>& frames = d.contact.frames;  // scratch here: the guards recompute them
  const std::vector<int>& near = d.contact.near.contacts;
  compute_event_frames(sys, kin, d.contact.broadphase, d.contact.near, frames);  // far ones: min(phi, 0) and touching as exact
  for (int i : near) d.phase.phi_start[i] = frames[i].phi;
  phase_guards(sys.contacts, d.phase.modes, d.phase.phi_start, sys.contact.distance_tolerance, near, d.phase.guards);
  mark_bounced(sys, d, kin, frames, x);
  // With contacts closed the guards' forces at x give the integrator its first rate: the same bits
  // as phase_rhs at x, without solving for them twice.
  Dopri5::Status st;
  if (guard_data_at_state(sys, d, x)) {
    d.scratch.rate.resize(x.size());
    phase_rate(sys, d, d.scratch.rate);
    st = ode.reset(t, x, d.scratch.rate, true);
  } else {
    // Free flight (phase_rhs leaves what the guards read as it found it), or forces that cannot
    // be found, where phase_rhs fails as well and the run stops.
    st = ode.reset(t, x, true);
  }
  if (st != Dopri5::Status::ok) fail(sys.model, ode, st);
  evaluate_phase_guards(sys, d, d.phase.g_prev);
  set_force_floors(d.phase.guards, d.phase.g_prev);
  set_stick_floors(d.phase.guards, sys.contact.velocity_tolerance, d.phase.g_prev);
  set_painleve_floors(d.phase.guards, d.phase.g_prev);
  note_passing(d.phase.guards, d.phase.g_prev);
  arm_guards(d.phase.guards, d.phase.g_prev);
}

// Stops, within seconds, a run that cannot reach t_end. Every sys.simulation.stall_window steps
// (accepted and rejected) it compares the progress of the last window with what is left:
//   - less than 1e-6 t_end: the step size collapsed (stalled);
//   - at that pace t_end needs more than kPaceMargin times the steps max_steps has left
//     (step_limit, now rather than after the hours the remaining steps would take). The margin
//     spares runs whose pace picks up later (a tumbling cube that comes to rest skips to t_end).
std::string steps_text(double n) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", n);
  return text;
}

constexpr double kPaceMargin = 20;

class StallWatch {
 public:
  StallWatch(const SimulationSettings& s, const ContactModel& contacts, bool steps_through_chatter)
      : window_(s.stall_window), max_steps_(s.max_steps), t_end_(s.t_end), contacts_(contacts),
        fired_(static_cast<size_t>(contacts.size()) * kGuardKinds, 0), steps_through_chatter_(steps_through_chatter) {}
  // Counts the guard whose crossing placed an event, so that a stop can say which contacts held
  // the run back (not the others within their tolerance there: open contacts a micrometre from a
  // chattering one were blamed for its stick guard).
  void note(const FiredGuard& crossed) { ++fired_[static_cast<size_t>(crossed.contact) * kGuardKinds + static_cast<int>(crossed.kind)]; }
  // t: the time the run has reached (the last event or accepted step; the integrator's own time
  // runs ahead of it to the end of a step an event cut short).
  void check(const Dopri5& ode, double t) {
    if (window_ <= 0) return;
    const long steps = ode.accepted() + ode.rejected();
    if (steps - start_steps_ < window_) return;
    const double advanced = t - start_t_;
    const std::string pace = format_time(t) + " s: the last " + std::to_string(steps - start_steps_) +
                             " steps advanced it by " + format_time(advanced) + " s";
    if (advanced < 1e-6 * t_end_)
      throw SimulationError(t, StopReason::stalled,
                            "integration stalled at t = " + pace +
                                " (the step size collapsed; simulation.stall_window sets the window)" + most_fired());
    const double needed = (t_end_ - t) / advanced * static_cast<double>(steps - start_steps_);
    // steps counts rejected tries too, so it can pass max_steps before the step cap (accepted steps) does.
    const long left = std::max(0L, static_cast<long>(max_steps_ - steps));
    if (needed > kPaceMargin * static_cast<double>(left))
      throw SimulationError(t, StopReason::step_limit,
                            "integration stopped at t = " + pace + "; at that pace t_end needs about " +
                                steps_text(needed) + " more steps, " +
                                (left > 0 ? "more than " + steps_text(kPaceMargin) + " times the " + std::to_string(left) +
                                                " simulation.max_steps leaves"
                                          : std::string("and the simulation.max_steps steps are spent")) +
                                most_fired());
    start_steps_ = steps;
    start_t_ = t;
    std::fill(fired_.begin(), fired_.end(), 0L);
  }

 private:
  // "; in that window the guards that fired most were stick of 's4@s5' (1978 times), ..." (up to three).
  std::string most_fired() const {
    std::vector<size_t> order;
    for (size_t k = 0; k < fired_.size(); ++k)
      if (fired_[k] > 0) order.push_back(k);
    if (order.empty()) return "";
    const size_t shown = std::min<size_t>(3, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
                      [&](size_t a, size_t b) { return fired_[a] > fired_[b] || (fired_[a] == fired_[b] && a < b); });
    std::string text = "; in that window the guards that fired most were";
    for (size_t n = 0; n < shown; ++n) {
      const size_t k = order[n];
      text += std::string(n == 0 ? " " : ", ") + std::string(guard_kind_name(static_cast<GuardKind>(k % kGuardKinds))) + " of '" +
              contacts_.contact(static_cast<int>(k / kGuardKinds)).name + "' (" + std::to_string(fired_[k]) + " times)";
    }
    if (!steps_through_chatter_) text += " (simulation.contact.painleve_step > 0 would step through guards that chatter)";
    return text;
  }

  long window_, max_steps_;
  double t_end_;
  const ContactModel& contacts_;
  std::vector<long> fired_;  // per contact and guard kind, in this window
  bool steps_through_chatter_;
  long start_steps_ = 0;
  double start_t_ = 0.0;
};

// The loop itself. x and t always hold the last state the run reached, for the caller to report
// where a failed run stopped.
void run_loop(const System& sys, const ImpactLaw& law, Rng& rng, const RunCallbacks& cb, LoopData& d, Dopri5& ode,
              Eigen::VectorXd& x, double& t) {
  const SimulationSettings& settings = sys.simulation;
  bool has_quaternions = false;
  for (const Body& b : sys.model.bodies) has_quaternions = has_quaternions || b.joint.type == JointType::free;
  const EventLog log = event_log(sys, d, cb);
  d.scratch.q_check = x.head(sys.model.nq);
  update_kinematics(sys.model, d.scratch.q_check, d.scratch.near_kin);
  narrow(sys, d, d.scratch.near_kin);
  emit(sys, d, cb.sample, 0.0, x);
  long next = 1;
  const long last = last_output_row(settings);
  const double eps_t = 1e-12 * std::max(1.0, settings.t_end);
  // Painleve steps carry the run on until the modes at their end are consistent (or t_end).
  // At least `steps` of them.
  const auto step_on = [&](int steps) {
    do {
      step_through(sys, cb, log, d, t, x, next, last);
    } while (t < settings.t_end - eps_t && (--steps > 0 || !handle_event(sys, law, rng, cb, log, d, t, x, {})));
  };
  // An event at (t, x); where no contact modes are consistent, steps.
  const auto event_at = [&](const std::vector<FiredGuard>& fired) {
    if (!handle_event(sys, law, rng, cb, log, d, t, x, fired)) step_on(1);
  };
  ChatterWatch chatter;
  event_at({});
  if (cb.stop && cb.stop()) return;
  // At rest the remaining rows all equal x.
  auto rests = [&](double t_now) {
    d.scratch.q = x.head(sys.model.nq);
    d.scratch.v = x.tail(sys.model.nv);
    if (!at_rest(sys, d.phase.modes, d.phase.closed, t_now, d.scratch.q, d.scratch.v, d.contact, d.forces)) return false;
    log(rest_event(t_now, d.phase.modes, d.scratch.v, d.contact));
    for (; next <= last; ++next) emit(sys, d, cb.sample, output_time(settings, next), x);
    return true;
  };
  if (rests(t)) return;
  const auto state_at = [&](double t_at) -> const Eigen::VectorXd& {  // on the dense output
    ode.dense(t_at, d.scratch.x_tmp);
    normalize_configuration(sys.model, d.scratch.x_tmp.data());
    return d.scratch.x_tmp;
  };
  const auto guards_at = [&](double t_at, Eigen::VectorXd& g) { guards_at_state(sys, d, state_at(t_at), g); };
  const auto guard_at = [&](double t_at, int k) { return guard_at_state(sys, d, state_at(t_at), k); };
  StallWatch stall(settings, sys.contacts, sys.contact.painleve_step > 0);
  while (t < settings.t_end - eps_t) {
    start_phase(sys, d, ode, t, x);
    while (true) {
      if (ode.accepted() + ode.rejected() >= settings.max_steps)
        throw SimulationError(ode.t(), StopReason::step_limit,
                              "integration stopped at t = " + format_time(ode.t()) + " s: more than " +
                                  std::to_string(settings.max_steps) + " steps");
      if (auto st = ode.step(settings.t_end); st != Dopri5::Status::ok) {
        // A step size that collapses with M well conditioned is a rate the smooth phase cannot
        // follow: a coin rolling flat on its rim, its contact point whirling ever faster as the
        // tilt vanishes (Euler's disk, a finite-time singularity the slap of its face ends). Like
        // an instant with no consistent modes, it is stepped through from the last state reached.
        if (st != Dopri5::Status::step_underflow || sys.contact.painleve_step <= 0 || nearly_singular_mass(sys.model, x))
          fail(sys.model, ode, st);
        ode.forget_step();
        step_on(1);
        if (rests(t)) return;
        break;
      }
      stall.check(ode, t);
      keep_near(sys, d, ode.t(), state_at);
      d.scratch.q_step = d.scratch.q_reading;
      const auto locate = [&] {
        return locate_event(sys.contacts, sys.contact.distance_tolerance, ode.t_prev(), ode.t(), guards_at, guard_at,
                            d.phase.guards, d.phase.g_prev);
      };
      std::optional<LocatedEvent> event;
      try {
        event = locate();
      } catch (const NearSetLeft&) {
        follow_everything(sys, d);
        event = locate();
      }
      if (!event) d.phase.scanned = true;
      const double t_until = event ? event->t : ode.t();
      for (; next <= last && output_time(settings, next) <= t_until + eps_t; ++next) {
        ode.dense(output_time(settings, next), d.scratch.x_tmp);
        emit(sys, d, cb.sample, output_time(settings, next), d.scratch.x_tmp);
      }
      if (event) {
        stall.note(event->crossed);
        ode.dense(event->t, x);
        normalize_configuration(sys.model, x.data());
        t = event->t;
        const long collisions = d.collisions;
        event_at(event->fired);
        if (const int steps = chatter.chattering(t, d.collisions != collisions, sys.contact.painleve_step); steps > 0) {
          step_on(steps);
          chatter.stepped(t);
        }
        if (!x.allFinite())
          throw SimulationError(t, StopReason::not_finite, "the state after the event at t = " + format_time(t) + " s is not finite");
        if (cb.stop && cb.stop()) return;
        if (rests(t)) return;
        break;
      }
      t = ode.t();
      x = ode.y();
      if (has_quaternions) {
        normalize_configuration(sys.model, x.data());
        if (auto st = ode.set_state(x); st != Dopri5::Status::ok) fail(sys.model, ode, st);
      }
      track_penetration(sys, d, x);
      // A phase can settle onto its rest state without an event (a coin flat on its face, its last
      // rocking damped by Baumgarte's correction), so rest is checked after every step too: at_rest
      // reads |v| first, which costs next to nothing while anything moves.
      if (rests(t)) return;
      if (t >= settings.t_end - eps_t) break;
    }
  }
  for (; next <= last; ++next) emit(sys, d, cb.sample, output_time(settings, next), x);
}

}  // namespace

RunStats simulate_hybrid(const System& sys, const ImpactLaw& law, const State& initial, Rng& rng,
                         const RunCallbacks& cb) {
  LoopData d(sys);
  Dopri5 ode(sys.model.nq + sys.model.nv,
             [&](double, const Eigen::VectorXd& x, Eigen::VectorXd& dx) { return phase_rhs(sys, d, x, dx); },
             sys.simulation.ode);
  Eigen::VectorXd x(sys.model.nq + sys.model.nv);
  x << initial.q, initial.v;
  if (!x.allFinite()) throw SimulationError(0.0, StopReason::not_finite, "the initial state is not finite");
  double t = 0.0;
  try {
    run_loop(sys, law, rng, cb, d, ode, x, t);
  } catch (const SimulationError&) {
    if (cb.stopped) emit(sys, d, cb.stopped, t, x);
    throw;
  }
  d.stats.steps = ode.accepted();
  d.stats.rejected_steps = ode.rejected();
  d.stats.evaluations = ode.evaluations();
  return d.stats;
}

}  // namespace impactsim
