#include "core/events.hpp"

#include <cmath>
#include <ostream>
#include <sstream>

namespace impactsim {

std::string_view stop_reason_code(StopReason reason) {
  switch (reason) {
    case StopReason::step_limit: return "step_limit";
    case StopReason::stalled: return "stalled";
    case StopReason::singular_mass: return "singular_mass";
    case StopReason::not_finite: return "not_finite";
    case StopReason::step_underflow: return "step_underflow";
    case StopReason::event_limit: return "event_limit";
    case StopReason::impact_failed: return "impact_failed";
    case StopReason::impacts_unending: return "impacts_unending";
    case StopReason::no_contact_forces: return "no_contact_forces";
    case StopReason::missed_impact: return "missed_impact";
    case StopReason::step_problem_failed: return "step_problem_failed";
    case StopReason::initial_penetration: return "initial_penetration";
    case StopReason::unstable_step: return "unstable_step";
    case StopReason::energy_gain: return "energy_gain";
  }
  return "?";
}

void check_finite_row(const Sample& row) {
  if (row.q.allFinite() && row.v.allFinite() && std::isfinite(row.kinetic_energy) && std::isfinite(row.potential_energy))
    return;
  const char* what = !row.q.allFinite()                ? "the configuration"
                     : !row.v.allFinite()              ? "the velocity"
                     : !std::isfinite(row.kinetic_energy) ? "the kinetic energy"
                                                          : "the potential energy";
  throw SimulationError(row.t, StopReason::not_finite,
                        "at t = " + format_time(row.t) + " s " + what +
                            " is not finite: the scene's scale overflows double precision (world.gravity, the "
                            "bodies' masses and initial velocities)");
}

std::string format_time(double t) {
  std::ostringstream s;
  s.precision(12);
  s << t;
  return s.str();
}

std::string_view event_kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::impact: return "impact";
    case EventKind::zeno: return "zeno";
    case EventKind::iwc: return "iwc";
    case EventKind::liftoff: return "liftoff";
    case EventKind::stick: return "stick";
    case EventKind::slip: return "slip";
    case EventKind::rest: return "rest";
    case EventKind::step: return "step";
    case EventKind::sleep: return "sleep";
    case EventKind::wake: return "wake";
  }
  return "?";
}

std::ostream& operator<<(std::ostream& out, EventKind kind) { return out << event_kind_name(kind); }

bool is_impact(EventKind kind) {
  return kind == EventKind::impact || kind == EventKind::zeno || kind == EventKind::iwc;
}

bool closes_dependent_rows(const Event& e) {
  return e.kind == EventKind::zeno && e.law == "close" &&
         e.kinetic_before - e.kinetic_after > kDependentCloseRatio * e.rowwise_loss;
}

}  // namespace impactsim
