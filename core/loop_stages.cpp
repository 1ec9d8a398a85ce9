#include "core/loop_stages.hpp"

#include <utility>

#include "core/dynamics.hpp"
#include "core/event_handling.hpp"
#include "core/near_follow.hpp"
#include "core/phase.hpp"
#include "core/settled_islands.hpp"
#include "core/sleep_loop.hpp"

namespace impactsim {
namespace {

// Smallest over largest eigenvalue of M(q) below which a collapsing step is blamed on M.
constexpr double kNearlySingularMass = 1e-10;

}  // namespace

bool nearly_singular_mass(const Model& model, const Eigen::VectorXd& x, MassMatrixCheck* check) {
  const Eigen::VectorXd q = x.head(model.nq);
  if (!q.allFinite()) return false;
  const MassMatrixCheck m = check_mass_matrix(model, q);
  if (check) *check = m;
  return m.conditioning < kNearlySingularMass && m.weakest >= 0;
}

[[noreturn]] void fail_integration(const Model& model, const Dopri5& ode, Dopri5::Status status) {
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

bool handle_event(const System& sys, const ImpactLaw& law, Rng& rng, const RunCallbacks& cb, const EventLog& log,
                  LoopData& d, double t, Eigen::VectorXd& x, const std::vector<FiredGuard>& fired, bool retry) {
  d.scratch.x_before = x;
  const long logged = d.stats.events;
  d.scratch.q = x.head(sys.model.nq);
  d.scratch.v = x.tail(sys.model.nv);
  ContactData& c = d.contact;
  compute_event_data(sys, d.phase.modes, d.scratch.q, d.scratch.v, c);
  const std::vector<bool> deferred = deferred_contacts(sys, d.phase.modes, c, d.scratch.v, t);
  bool chosen = resolve_impacts(sys, law, rng, t, d.phase.modes, deferred, d.scratch.v, c, log, &d.fastest_collision);
  std::vector<bool>& resting_open = d.scratch.resting_open;
  resting_open.assign(sys.contacts.size(), false);
  for (int i : c.near.contacts)  // phi_start holds the near set's, which only grows within a phase
    resting_open[i] = d.phase.modes.mode[i] == ContactMode::open && i < static_cast<int>(d.phase.phi_start.size()) &&
                      d.phase.phi_start[i] <= sys.contact.distance_tolerance;
  const std::vector<bool> settled =
      settled_contacts(sys, d.phase.modes, c, deferred, fired, d.scratch.x_before.tail(sys.model.nv), d.scratch.v, d.sleep);
  ChoiceLimits limits;
  if (sys.model.nv >= kBlockwiseFrom) limits = {bounded_lemke(retry), retry ? limits.impacts_without_collision : 0};
  chosen = chosen && choose_modes(sys, t, fired, deferred, d.scratch.v, d.phase.modes, c, d.forces, log, resting_open,
                                  settled, limits);
  if (!chosen) d.phase.modes = ContactModes::all_open(sys.contacts.size());
  wake_reached_islands(sys, d, t, settled, chosen, d.scratch.v, log);
  closed_flags(d.phase.modes, d.phase.closed);
  awake_closed(d.phase.modes, d.sleep, d.phase.closed_set);
  x.tail(sys.model.nv) = d.scratch.v;
  if (d.stats.events == logged) return chosen;
  emit(sys, d, cb.event_sample, t, d.scratch.x_before);
  emit(sys, d, cb.event_sample, t, x);
  return chosen;
}

void step_through(const System& sys, const RunCallbacks& cb, const EventLog& log, LoopData& d, double& t,
                  Eigen::VectorXd& x, long& next, long last, double h_asked) {
  const SimulationSettings& settings = sys.simulation;
  const int nq = sys.model.nq, nv = sys.model.nv;
  d.scratch.q = x.head(nq);
  d.scratch.v = x.tail(nv);
  // The step moves every body without reading guards: every contact is followed through it, and
  // the near set is selected again at its end.
  if (!d.contact.near.all) d.contact.near = d.contact.broadphase.everything(sys.contacts);
  wake_all(sys, d, t, d.scratch.q, d.scratch.v, log);
  const double h = std::min(h_asked, settings.t_end - t);
  if (d.step_start.t != t) d.step_start.known.clear();  // not the last step's end: no start
  const PainleveStep s = painleve_step(sys, d.scratch.q, d.scratch.v, h, d.contact, &d.step_start);
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
  t = d.step_start.t = t1;
}

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
  moving_contacts(sys.contacts, d.sleep, near, d.scratch.need);  // a contact that nothing moves has no guard to read
  phase_guards(sys.contacts, d.phase.modes, d.phase.phi_start, sys.contact.distance_tolerance, d.scratch.need,
               d.phase.guards);
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
  if (st != Dopri5::Status::ok) fail_integration(sys.model, ode, st);
  evaluate_phase_guards(sys, d, d.phase.g_prev);
  set_force_floors(d.phase.guards, d.phase.g_prev);
  set_stick_floors(d.phase.guards, sys.contact.velocity_tolerance, d.phase.g_prev);
  set_painleve_floors(d.phase.guards, d.phase.g_prev);
  note_passing(d.phase.guards, d.phase.g_prev);
  arm_guards(d.phase.guards, d.phase.g_prev);
  d.phase.samples.restart(d.phase.guards.size());
}

}  // namespace impactsim
