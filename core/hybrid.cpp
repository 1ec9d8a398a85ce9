#include "core/hybrid.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/chatter.hpp"
#include "core/dopri5.hpp"
#include "core/dynamics.hpp"
#include "core/event_handling.hpp"
#include "core/event_locate.hpp"
#include "core/loop_data.hpp"
#include "core/near_follow.hpp"
#include "core/phase.hpp"
#include "core/settled_islands.hpp"
#include "core/sleep_loop.hpp"
#include "core/stall_watch.hpp"

namespace impactsim {
namespace {

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
// before and just after are written only when something was logged. False where no contact modes
// are consistent (choose_modes) or an impact failed where the loop steps (resolve_impacts): the
// caller steps through. A large model's Lemke runs stop at 2 n + 100 pivots; its try after steps
// (`retry` false) takes first answers and no impact without collision (an island's LCP, mostly failing).
bool handle_event(const System& sys, const ImpactLaw& law, Rng& rng, const RunCallbacks& cb, const EventLog& log,
                  LoopData& d, double t, Eigen::VectorXd& x, const std::vector<FiredGuard>& fired, bool retry) {
  d.scratch.x_before = x;
  const long logged = d.stats.events;
  d.scratch.q = x.head(sys.model.nq);
  d.scratch.v = x.tail(sys.model.nv);
  ContactData& c = d.contact;
  compute_event_data(sys, d.phase.modes, d.scratch.q, d.scratch.v, c);
  const std::vector<bool> deferred = deferred_contacts(sys, d.phase.modes, c, d.scratch.v, t);
  bool chosen = resolve_impacts(sys, law, rng, t, d.phase.modes, deferred, d.scratch.v, c, log);
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

// One Painleve step of at most h from (t, x) (core/painleve_step.hpp), no further than t_end:
// logged, with the rows of the output times it passes (x linear on the step, as the time-stepping
// integrator reports them); t and x move to its end.
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
  if (st != Dopri5::Status::ok) fail(sys.model, ode, st);
  evaluate_phase_guards(sys, d, d.phase.g_prev);
  set_force_floors(d.phase.guards, d.phase.g_prev);
  set_stick_floors(d.phase.guards, sys.contact.velocity_tolerance, d.phase.g_prev);
  set_painleve_floors(d.phase.guards, d.phase.g_prev);
  note_passing(d.phase.guards, d.phase.g_prev);
  arm_guards(d.phase.guards, d.phase.g_prev);
}

// The loop itself, over the run's state: x and t always hold the last state the run reached, for
// the caller to report where a failed run stopped; `next` is the next output row.
class EventLoop {
 public:
  EventLoop(const System& sys, const ImpactLaw& law, Rng& rng, const RunCallbacks& cb, LoopData& d, Dopri5& ode,
            Eigen::VectorXd& x, double& t)
      : sys_(sys), law_(law), rng_(rng), cb_(cb), d_(d), ode_(ode), x_(x), t_(t), log_(event_log(sys, d, cb)),
        last_(last_output_row(sys.simulation)), eps_t_(1e-12 * std::max(1.0, sys.simulation.t_end)),
        stall_(sys.simulation, sys.contacts, sys.contact.painleve_step > 0) {
    for (const Body& b : sys.model.bodies) has_quaternions_ = has_quaternions_ || b.joint.type == JointType::free;
  }

  void run() {
    d_.scratch.q_check = x_.head(sys_.model.nq);
    update_kinematics(sys_.model, d_.scratch.q_check, d_.scratch.near_kin);
    narrow(sys_, d_, d_.scratch.near_kin);
    emit(sys_, d_, cb_.sample, 0.0, x_);
    event_at({});
    if ((cb_.stop && cb_.stop()) || rests(t_)) return;
    while (t_ < sys_.simulation.t_end - eps_t_) {
      start_phase(sys_, d_, ode_, t_, x_);
      // Events can follow each other closer than a step: islands at rest are looked for at a
      // phase's start too, where the integrator holds its first rate.
      if (sleep_islands()) {
        if (rests(t_)) return;
        start_phase(sys_, d_, ode_, t_, x_);
      }
      if (run_phase()) return;
    }
    rows_until_end();
  }

 private:
  // Painleve steps carry the run on until the modes at their end are consistent (or t_end): over
  // at least `steps` steps' time, then tries spaced by retry_wait, the steps growing through a
  // long span and while the tries keep failing (core/chatter.hpp).
  void step_on(int steps) {
    StretchStep h(sys_.contact.painleve_step, sys_.contact.painleve_step_max);
    for (int wait = 1;;) {  // wait 1: the first `steps`, a span whose steps grow (StretchStep::span_step)
      step_through(sys_, cb_, log_, d_, t_, x_, next_, last_, h.next());
      if (t_ >= sys_.simulation.t_end - eps_t_) return;
      if ((steps -= wait == 1 ? h.span_step(steps) : 1) > 0) continue;
      if (handle_event(sys_, law_, rng_, cb_, log_, d_, t_, x_, {}, false)) return;
      steps = wait = retry_wait(wait);
      h.try_failed(wait);
    }
  }

  // An event at (t, x); where no contact modes are consistent, steps.
  void event_at(const std::vector<FiredGuard>& fired) {
    if (!handle_event(sys_, law_, rng_, cb_, log_, d_, t_, x_, fired, true)) step_on(1);
  }

  // At rest the remaining rows all equal x.
  bool rests(double t_now) {
    d_.scratch.q = x_.head(sys_.model.nq);
    d_.scratch.v = x_.tail(sys_.model.nv);
    if (!at_rest(sys_, d_.phase.modes, d_.phase.closed, t_now, d_.scratch.q, d_.scratch.v, d_.contact, d_.forces))
      return false;
    log_(rest_event(t_now, d_.phase.modes, d_.scratch.v, d_.contact));
    rows_until_end();
    return true;
  }

  void rows_until_end() {
    for (; next_ <= last_; ++next_) emit(sys_, d_, cb_.sample, output_time(sys_.simulation, next_), x_);
  }

  // The state at t_at on the dense output; at the step's end the step's own state, which the loop
  // accepts (the interpolant there is y0 + (y1 - y0), not y1 to the bit).
  const Eigen::VectorXd& state_at(double t_at) {
    if (t_at == ode_.t()) d_.scratch.x_tmp = ode_.y();
    else ode_.dense(t_at, d_.scratch.x_tmp);
    normalize_configuration(sys_.model, d_.scratch.x_tmp.data());
    return d_.scratch.x_tmp;
  }

  // The step just taken, scanned for the first event (core/event_locate.hpp); the step is read
  // again with every contact where a reading found a body beyond its near-set budget.
  std::optional<LocatedEvent> scan_step() {
    if (!d_.contact.near.all) keep_near(sys_, d_, state_at(ode_.t()));
    d_.scratch.q_step = d_.scratch.q_reading;
    // At the step's end the phase's rate too where the forces were found, for accept_step to
    // restart the integrator with after normalising quaternions: the same bits as f there.
    end_state_.resize(0);
    const auto guards_at = [&](double t_at, Eigen::VectorXd& g) {
      const Eigen::VectorXd& x = state_at(t_at);
      if (guard_data_at_state(sys_, d_, x) && has_quaternions_ && t_at == ode_.t()) {
        end_rate_.resize(x.size());
        phase_rate(sys_, d_, end_rate_);
        end_state_ = x;
      }
      evaluate_phase_guards(sys_, d_, g);
    };
    const auto guard_at = [&](double t_at, int k) { return guard_at_state(sys_, d_, state_at(t_at), k); };
    const auto locate = [&] {
      return locate_event(sys_.contacts, sys_.contact.distance_tolerance, ode_.t_prev(), ode_.t(), guards_at, guard_at,
                          d_.phase.guards, d_.phase.g_prev);
    };
    try {
      return locate();
    } catch (const NearSetLeft&) {
      follow_everything(sys_, d_);
      return locate();
    }
  }

  // Steps of one phase until an event ends it (false) or the run ends (true).
  bool run_phase() {
    const SimulationSettings& settings = sys_.simulation;
    while (true) {
      if (ode_.accepted() + ode_.rejected() >= settings.max_steps)
        throw SimulationError(ode_.t(), StopReason::step_limit,
                              "integration stopped at t = " + format_time(ode_.t()) + " s: more than " +
                                  std::to_string(settings.max_steps) + " steps");
      if (auto st = ode_.step(settings.t_end); st != Dopri5::Status::ok) return step_failed(st);
      stall_.check(ode_.accepted() + ode_.rejected(), t_);
      const std::optional<LocatedEvent> event = scan_step();
      if (!event) d_.phase.scanned = true;
      const double t_until = event ? event->t : ode_.t();
      for (; next_ <= last_ && output_time(settings, next_) <= t_until + eps_t_; ++next_) {
        ode_.dense(output_time(settings, next_), d_.scratch.x_tmp);
        emit(sys_, d_, cb_.sample, output_time(settings, next_), d_.scratch.x_tmp);
      }
      if (event) return handle_located(*event);
      if (accept_step()) return true;
      if (t_ >= settings.t_end - eps_t_) return false;
      if (sleep_islands()) return rests(t_);  // the last island to fall asleep: the run rests
    }
  }

  // A step size that collapses with M well conditioned is a rate the smooth phase cannot follow: a
  // coin rolling flat on its rim, its contact point whirling ever faster as the tilt vanishes
  // (Euler's disk, a finite-time singularity the slap of its face ends). Like an instant with no
  // consistent modes, it is stepped through from the last state reached.
  bool step_failed(Dopri5::Status st) {
    if (st != Dopri5::Status::step_underflow || sys_.contact.painleve_step <= 0 || nearly_singular_mass(sys_.model, x_))
      fail(sys_.model, ode_, st);
    ode_.forget_step();
    step_on(1);
    return rests(t_);
  }

  // The event the scan found: true where the run ends with it.
  bool handle_located(const LocatedEvent& event) {
    stall_.note(event.crossed);
    ode_.dense(event.t, x_);
    normalize_configuration(sys_.model, x_.data());
    t_ = event.t;
    const long collisions = d_.collisions;
    event_at(event.fired);
    if (const int steps = chatter_.chattering(t_, d_.collisions != collisions, sys_.contact.painleve_step); steps > 0) {
      step_on(steps);
      chatter_.stepped(t_);
    }
    if (!x_.allFinite())
      throw SimulationError(t_, StopReason::not_finite,
                            "the state after the event at t = " + format_time(t_) + " s is not finite");
    return (cb_.stop && cb_.stop()) || rests(t_);
  }

  // The step without an event: the run moves to its end. True where it is then at rest. A phase
  // can settle onto its rest state without an event (a coin flat on its face, its last rocking
  // damped by Baumgarte's correction), so rest is checked after every step too: at_rest reads |v|
  // first, which costs next to nothing while anything moves.
  bool accept_step() {
    t_ = ode_.t();
    x_ = ode_.y();
    if (has_quaternions_) {
      normalize_configuration(sys_.model, x_.data());
      const bool known = end_state_.size() == x_.size() && end_state_ == x_;  // the guards' last state, to the bit
      if (auto st = known ? ode_.set_state(x_, end_rate_) : ode_.set_state(x_); st != Dopri5::Status::ok)
        fail(sys_.model, ode_, st);
    }
    track_penetration(sys_, d_, x_);
    return rests(t_);
  }

  // Islands at rest at (t_, x_) fall asleep (core/sleep_loop.hpp): true where one did. The
  // integrator's rate is f at x_ (a step's last stage, or a phase's first rate).
  bool sleep_islands() { return sleep_resting_islands(sys_, d_, t_, x_, ode_.rate(), log_, cb_.event_sample); }

  const System& sys_;
  const ImpactLaw& law_;
  Rng& rng_;
  const RunCallbacks& cb_;
  LoopData& d_;
  Dopri5& ode_;
  Eigen::VectorXd& x_;
  double& t_;
  const EventLog log_;
  long next_ = 1;
  const long last_;
  const double eps_t_;
  bool has_quaternions_ = false;
  Eigen::VectorXd end_state_, end_rate_;  // the state at the step's end where the guards found forces, f there
  ChatterWatch chatter_;
  StallWatch stall_;
};

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
    EventLoop(sys, law, rng, cb, d, ode, x, t).run();
  } catch (const SimulationError&) {
    try {
      if (cb.stopped) emit(sys, d, cb.stopped, t, x);
    } catch (const SimulationError&) {  // a state not finite: the reason already thrown says so
    }
    throw;
  }
  d.stats.steps = ode.accepted();
  d.stats.rejected_steps = ode.rejected();
  d.stats.evaluations = ode.evaluations();
  return d.stats;
}

}  // namespace impactsim
