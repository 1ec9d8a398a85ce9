#pragma once
// Event location on one accepted step of the smooth phase: scan the dense output for the earliest
// armed guard crossing, then find its time by root finding on the guard along the dense output.
#include <optional>
#include <vector>

#include "core/function_ref.hpp"
#include "core/guards.hpp"

namespace impactsim {

struct FiredGuard {
  int contact = 0;
  GuardKind kind = GuardKind::impact;
};

struct LocatedEvent {
  double t = 0.0;                // the end of the final bracket on the fired side (every fired guard <= its tolerance)
  std::vector<FiredGuard> fired; // every armed guard within its tolerance of firing at t, in guard order
  FiredGuard crossed;            // the guard whose crossing placed t (the others were within their tolerance there)
};

// The value of every guard at time t of the step (the caller interpolates the dense output there).
using GuardsAt = FunctionRef<void(double t, Eigen::VectorXd& g)>;
// The value of guard k alone at time t: the same bits as guards_at's g[k]. Root finding asks for
// one guard a dozen times an event; an impact guard then needs the poses and one phi, where every
// guard needs the contact forces of the phase's mode (half a 50-sphere pile's run time).
using GuardAt = FunctionRef<double(double t, int k)>;

// Scans the step [t0, t1] at its quarter points, so a guard that dips below zero and back within
// one step is not missed. g_prev holds the guards at t0 and, when no event is found, is left
// holding them at t1. Guards positive at a scanned point are armed; gated contacts found behind
// are marked passing, and an unarmed open contact that sinks deeper than 10 distance tolerances
// raises SimulationError. An armed guard going from > 0 to <= 0 is located to
// kEventTimePrecision, the earliest such crossing is the event; guards_at is then last called at
// its time, so whatever the caller's guards_at computes is left at the event's state.
// interior_at reads the guards at the step's interior quarter points (guards_at everywhere else:
// the step's end and the event's time); the overload without it reads them all by guards_at.
std::optional<LocatedEvent> locate_event(const ContactModel& contacts, double distance_tolerance, double t0, double t1,
                                         GuardsAt guards_at, GuardsAt interior_at, GuardAt guard_at,
                                         std::vector<Guard>& guards, Eigen::VectorXd& g_prev);
inline std::optional<LocatedEvent> locate_event(const ContactModel& contacts, double distance_tolerance, double t0,
                                                double t1, GuardsAt guards_at, GuardAt guard_at,
                                                std::vector<Guard>& guards, Eigen::VectorXd& g_prev) {
  return locate_event(contacts, distance_tolerance, t0, t1, guards_at, guards_at, guard_at, guards, g_prev);
}

// Events are located to a bracket narrower than kEventTimePrecision max(1, |t|) s, about 45 units in
// the last place at t = 10 s. The located time is the bracket's end where the guard has fired, so
// each impact comes up to a bracket late and its rebound a little faster (g times the lateness);
// in a sequence of impacts these add up: at 1e-12 the bouncing ball's 44th impact was 2.1e-10 s
// off its closed form, at 1e-14 it is within 1e-11 s, for one or two more guard evaluations.
constexpr double kEventTimePrecision = 1e-14;

// The time in [ta, tb] where guard(t) crosses from ga > 0 to gb <= 0, to a bracket narrower than
// kEventTimePrecision max(1, |tb|) s (at most 100 evaluations): the end of the final bracket where
// g <= 0.
double locate_crossing(FunctionRef<double(double)> guard, double ta, double tb, double ga, double gb);

}  // namespace impactsim
