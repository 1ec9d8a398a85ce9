#include "core/event_loop.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/event_handling.hpp"
#include "core/loop_stages.hpp"
#include "core/near_follow.hpp"
#include "core/phase.hpp"
#include "core/sleep_loop.hpp"

namespace impactsim {
namespace {

// The first output row after t.
long first_row_after(const SimulationSettings& s, double t, double eps_t) {
  const long last = last_output_row(s);
  long k = std::max(1L, static_cast<long>(std::floor(t / s.output_interval)) - 1);
  while (k > 1 && output_time(s, k - 1) > t + eps_t) --k;
  while (k <= last && output_time(s, k) <= t + eps_t) ++k;
  return t > 0 ? k : 1;
}

// Every contact plastic (e = 0): a large model's collisions may be stepped (core/chatter.hpp).
bool plastic(const ContactModel& contacts) {
  for (int i = 0; i < contacts.size(); ++i)
    if (contacts.contact(i).e != 0.0) return false;
  return true;
}

// The fastest a step leaves a contact approaching: gravity over the longest step [m/s].
double residue_speed(const System& sys) {
  return sys.model.gravity.norm() * std::max(sys.contact.painleve_step, sys.contact.painleve_step_max);
}

// What a guard's crossing says of a slide, for the chatter rules (core/chatter.hpp).
SlideEdge slide_edge(GuardKind kind) {
  switch (kind) {
    case GuardKind::slip: return SlideEdge::slip;
    case GuardKind::stick: return SlideEdge::stick;
    case GuardKind::hold:
    case GuardKind::follow: return SlideEdge::turn;
    default: return SlideEdge::none;
  }
}

}  // namespace

EventLoop::EventLoop(const System& sys, const ImpactLaw& law, Rng& rng, const RunCallbacks& cb, LoopData& d, Dopri5& ode,
                     Eigen::VectorXd& x, double& t)
    : sys_(sys), law_(law), rng_(rng), cb_(cb), d_(d), ode_(ode), x_(x), t_(t), log_(event_log(sys, d, cb)),
      last_(last_output_row(sys.simulation)), eps_t_(1e-12 * std::max(1.0, sys.simulation.t_end)),
      chatter_(plastic(sys.contacts), residue_speed(sys)), stall_(sys.simulation, sys.contacts, sys.contact.painleve_step > 0) {
  for (const Body& b : sys.model.bodies) has_quaternions_ = has_quaternions_ || b.joint.type == JointType::free;
  next_ = first_row_after(sys.simulation, t, eps_t_);
}

void EventLoop::begin() {
  d_.scratch.q_check = x_.head(sys_.model.nq);
  update_kinematics(sys_.model, d_.scratch.q_check, d_.scratch.near_kin);
  narrow(sys_, d_, d_.scratch.near_kin);
  if (t_ == 0.0) emit(sys_, d_, cb_.sample, 0.0, x_);
  event_at({});
  over_ = stop_asked() || rests(t_);
}

bool EventLoop::advance(double until) {
  until_ = until;
  const double t_end = sys_.simulation.t_end;
  if (pending_ ? pending_->t <= until_ : !over_ && t_ < until_ && t_ < t_end - eps_t_) path_.clear();
  if (!begun_) {
    begun_ = true;
    begin();
  }
  if (!over_ && pending_ && pending_->t <= until_) {
    const LocatedEvent event = *pending_;
    pending_.reset();
    phase_open_ = false;
    over_ = handle_located(event);
  }
  while (!over_ && !pending_ && t_ < t_end - eps_t_ && t_ < until_) {
    if (!phase_open_) {
      start_phase(sys_, d_, ode_, t_, x_);
      // Events can follow each other closer than a step: islands at rest are looked for at a
      // phase's start too, where the integrator holds its first rate.
      if (sleep_islands()) {
        if ((over_ = rests(t_))) break;
        start_phase(sys_, d_, ode_, t_, x_);
      }
      phase_open_ = true;
    }
    const PhaseEnd end = run_phase();
    if (end == PhaseEnd::paused) break;
    over_ = end == PhaseEnd::over;
    phase_open_ = false;
  }
  if (!over_ && t_ >= t_end - eps_t_) {
    rows_until_end();
    over_ = true;
  }
  return over_;
}

Eigen::VectorXd EventLoop::state_at_time(double s) {
  if (!pending_ && s >= t_) return x_;
  if (pending_ && s >= ode_.t_prev() && s <= ode_.t()) return state_at(s);
  for (auto seg = path_.rbegin(); seg != path_.rend(); ++seg) {
    if (s < seg->t0 || s > seg->t1) continue;
    if (seg->dense) return state_at(s);
    const double u = (s - seg->t0) / (seg->t1 - seg->t0);
    Eigen::VectorXd x = (1 - u) * seg->x0 + u * seg->x1;
    x.tail(sys_.model.nv) = seg->x1.tail(sys_.model.nv);  // a Painleve step's own path: x linear, v its end's
    normalize_configuration(sys_.model, x.data());
    return x;
  }
  throw std::logic_error("event loop: no state kept at t = " + format_time(s) + " s");
}

// Painleve steps carry the run on until the modes at their end are consistent (or t_end): over
// at least `steps` steps' time, then tries spaced by retry_wait, the steps growing through a
// long span and while the tries keep failing (core/chatter.hpp), from h_first where that is larger
// than painleve_step (at most the span). Returns the size of the last step.
double EventLoop::step_on(int steps, double h_first) {
  const double h0 = sys_.contact.painleve_step;
  StretchStep h(h0, sys_.contact.painleve_step_max, std::min(h_first, steps * h0));
  for (int wait = 1;;) {  // wait 1: the first `steps`, a span whose steps grow (StretchStep::span_step)
    const double t0 = t_, size = h.next();
    step_through(sys_, cb_, log_, d_, t_, x_, next_, last_, size);
    if (until_ < sys_.simulation.t_end) path_.push_back({t0, t_, false, d_.scratch.x_before, x_});
    if (t_ >= sys_.simulation.t_end - eps_t_) return size;
    if ((steps -= wait == 1 ? h.span_step(steps) : 1) > 0) continue;
    if (handle_event(sys_, law_, rng_, cb_, log_, d_, t_, x_, {}, false)) return size;
    steps = wait = retry_wait(wait);
    h.try_failed(wait);
  }
}

// An event at (t, x); where no contact modes are consistent, steps.
void EventLoop::event_at(const std::vector<FiredGuard>& fired) {
  if (!handle_event(sys_, law_, rng_, cb_, log_, d_, t_, x_, fired, true)) step_on(1);
}

// At rest the remaining rows all equal x.
bool EventLoop::rests(double t_now) {
  d_.scratch.q = x_.head(sys_.model.nq);
  d_.scratch.v = x_.tail(sys_.model.nv);
  if (!at_rest(sys_, d_.phase.modes, d_.phase.closed, t_now, d_.scratch.q, d_.scratch.v, d_.contact, d_.forces))
    return false;
  log_(rest_event(t_now, d_.phase.modes, d_.scratch.v, d_.contact));
  rows_until_end();
  return rested_ = true;
}

bool EventLoop::stop_asked() { return stopped_ = cb_.stop && cb_.stop(); }

void EventLoop::rows_until_end() {
  for (; next_ <= last_; ++next_) emit(sys_, d_, cb_.sample, output_time(sys_.simulation, next_), x_);
}

// The state at t_at on the dense output; at the step's end the step's own state, which the loop
// accepts (the interpolant there is y0 + (y1 - y0), not y1 to the bit).
const Eigen::VectorXd& EventLoop::state_at(double t_at) {
  if (t_at == ode_.t()) d_.scratch.x_tmp = ode_.y();
  else ode_.dense(t_at, d_.scratch.x_tmp);
  normalize_configuration(sys_.model, d_.scratch.x_tmp.data());
  return d_.scratch.x_tmp;
}

// The step just taken, scanned for the first event (core/event_locate.hpp); the step is read
// again with every contact where a reading found a body beyond its near-set budget.
std::optional<LocatedEvent> EventLoop::scan_step() {
  if (!d_.contact.near.all) keep_near(sys_, d_, state_at(ode_.t()));
  d_.scratch.q_step = d_.scratch.q_reading;
  std::optional<LocatedEvent> event;
  try {
    event = locate(d_.phase.samples.steady(d_.phase.guards, d_.phase.g_prev));
  } catch (const NearSetLeft&) {
    follow_everything(sys_, d_);
    event = locate(false);
  }
  d_.phase.samples.restart(d_.phase.guards.size());
  return event;
}

// The step's first event. With `steady` (the step's stages kept every force guard on one side:
// core/force_guard_samples.hpp) its interior is read without forces; where a reading with forces
// (the step's end, or the event's time) finds a force guard on the other side, the step is read
// again in full from where it started.
std::optional<LocatedEvent> EventLoop::locate(bool steady) {
  Phase& ph = d_.phase;
  if (steady) {
    guards_before_ = ph.guards;
    g_start_ = ph.g_prev;
  }
  g_read_.resize(0);
  end_state_.resize(0);
  // At the step's end the phase's rate too where the forces were found, for accept_step to
  // restart the integrator with after normalising quaternions: the same bits as f there.
  const auto guards_at = [&](double t_at, Eigen::VectorXd& g) {
    const Eigen::VectorXd& x = state_at(t_at);
    if (guard_data_at_state(sys_, d_, x) && has_quaternions_ && t_at == ode_.t()) {
      end_rate_.resize(x.size());
      phase_rate(sys_, d_, end_rate_);
      end_state_ = x;
    }
    evaluate_phase_guards(sys_, d_, g);
    if (steady) g_read_ = g;
  };
  const auto interior_at = [&](double t_at, Eigen::VectorXd& g) {
    if (!steady) return guards_at(t_at, g);
    kinematic_guards_at_state(sys_, d_, state_at(t_at), g);
    ph.samples.fill(ph.guards, g_start_, g);
  };
  const auto guard_at = [&](double t_at, int k) { return guard_at_state(sys_, d_, state_at(t_at), k); };
  std::optional<LocatedEvent> event =
      locate_event(sys_.contacts, sys_.contact.distance_tolerance, ode_.t_prev(), ode_.t(), guards_at, interior_at,
                   guard_at, ph.guards, ph.g_prev);
  if (!steady || ph.samples.keeps_side(ph.guards, g_start_, g_read_)) return event;
  ph.guards = guards_before_;
  ph.g_prev = g_start_;
  return locate(false);
}

// Steps of one phase until an event ends it, the run ends, or a step reaches until_.
EventLoop::PhaseEnd EventLoop::run_phase() {
  const SimulationSettings& settings = sys_.simulation;
  while (true) {
    if (ode_.accepted() + ode_.rejected() >= settings.max_steps)
      throw SimulationError(ode_.t(), StopReason::step_limit,
                            "integration stopped at t = " + format_time(ode_.t()) + " s: more than " +
                                std::to_string(settings.max_steps) + " steps");
    if (auto st = ode_.step(settings.t_end); st != Dopri5::Status::ok)
      return step_failed(st) ? PhaseEnd::over : PhaseEnd::next_phase;
    stall_.check(ode_.accepted() + ode_.rejected(), t_);
    const std::optional<LocatedEvent> event = scan_step();
    if (!event) d_.phase.scanned = true;
    const double t_until = event ? event->t : ode_.t();
    for (; next_ <= last_ && output_time(settings, next_) <= t_until + eps_t_; ++next_) {
      ode_.dense(output_time(settings, next_), d_.scratch.x_tmp);
      emit(sys_, d_, cb_.sample, output_time(settings, next_), d_.scratch.x_tmp);
    }
    if (until_ < sys_.simulation.t_end) path_.push_back({ode_.t_prev(), t_until, true, {}, {}});
    if (event && event->t > until_) {
      pending_ = *event;
      return PhaseEnd::paused;
    }
    if (event) return handle_located(*event) ? PhaseEnd::over : PhaseEnd::next_phase;
    if (accept_step()) return PhaseEnd::over;
    if (t_ >= settings.t_end - eps_t_) return PhaseEnd::next_phase;
    if (sleep_islands()) return rests(t_) ? PhaseEnd::over : PhaseEnd::next_phase;  // the last island to fall asleep: the run rests
    if (t_ >= until_) return PhaseEnd::paused;
  }
}

// A step size that collapses with M well conditioned is a rate the smooth phase cannot follow: a
// coin rolling flat on its rim, its contact point whirling ever faster as the tilt vanishes
// (Euler's disk, a finite-time singularity the slap of its face ends). Like an instant with no
// consistent modes, it is stepped through from the last state reached.
bool EventLoop::step_failed(Dopri5::Status st) {
  if (st != Dopri5::Status::step_underflow || sys_.contact.painleve_step <= 0 || nearly_singular_mass(sys_.model, x_))
    fail_integration(sys_.model, ode_, st);
  ode_.forget_step();
  step_on(1);
  return rests(t_);
}

// The event the scan found: true where the run ends with it.
bool EventLoop::handle_located(const LocatedEvent& event) {
  stall_.note(event.crossed);
  ode_.dense(event.t, x_);
  normalize_configuration(sys_.model, x_.data());
  t_ = event.t;
  const long collisions = d_.collisions;
  d_.fastest_collision = 0.0;
  event_at(event.fired);
  const int guard = event.crossed.contact * kGuardKinds + static_cast<int>(event.crossed.kind);
  const SlideEdge edge = slide_edge(event.crossed.kind);
  if (const int steps = chatter_.chattering(t_, d_.collisions != collisions, sys_.contact.painleve_step,
                                            sys_.model.nv, guard, event.crossed.contact, edge, d_.fastest_collision);
      steps > 0) {
    const double h_end = step_on(steps, chatter_.resume_size());
    chatter_.stepped(t_, h_end);
  }
  if (!x_.allFinite())
    throw SimulationError(t_, StopReason::not_finite,
                          "the state after the event at t = " + format_time(t_) + " s is not finite");
  return stop_asked() || rests(t_);
}

// The step without an event: the run moves to its end. True where it is then at rest. A phase
// can settle onto its rest state without an event (a coin flat on its face, its last rocking
// damped by Baumgarte's correction), so rest is checked after every step too: at_rest reads |v|
// first, which costs next to nothing while anything moves.
bool EventLoop::accept_step() {
  t_ = ode_.t();
  x_ = ode_.y();
  if (has_quaternions_) {
    normalize_configuration(sys_.model, x_.data());
    const bool known = end_state_.size() == x_.size() && end_state_ == x_;  // the guards' last state, to the bit
    if (auto st = known ? ode_.set_state(x_, end_rate_) : ode_.set_state(x_); st != Dopri5::Status::ok)
      fail_integration(sys_.model, ode_, st);
  }
  track_penetration(sys_, d_, x_);
  return rests(t_);
}

// Islands at rest at (t_, x_) fall asleep (core/sleep_loop.hpp): true where one did. The
// integrator's rate is f at x_ (a step's last stage, or a phase's first rate).
bool EventLoop::sleep_islands() { return sleep_resting_islands(sys_, d_, t_, x_, ode_.rate(), log_, cb_.event_sample); }

LoopRun::LoopRun(const System& sys, const ImpactLaw& law, Rng& rng, const RunCallbacks& cb, double t0,
                 const Eigen::VectorXd& x0)
    : d(sys),
      ode(sys.model.nq + sys.model.nv,
          [this, &sys](double, const Eigen::VectorXd& y, Eigen::VectorXd& dy) { return phase_rhs(sys, d, y, dy); },
          sys.simulation.ode),
      x(x0),
      t(t0),
      loop(sys, law, rng, cb, d, ode, x, t) {}

RunStats LoopRun::stats() const {
  RunStats s = d.stats;
  s.steps = ode.accepted();
  s.rejected_steps = ode.rejected();
  s.evaluations = ode.evaluations();
  return s;
}

}  // namespace impactsim
