#include "core/event_locate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <boost/math/tools/toms748_solve.hpp>

namespace impactsim {

// Alefeld, Potra and Shi's Algorithm 748 (ACM TOMS 21, 1995), as Boost.Math implements it: it
// keeps a bracket [a, b] with g(a) > 0 >= g(b) and converges at least as fast as Brent's method.
double locate_crossing(FunctionRef<double(double)> guard, double ta, double tb, double ga, double gb) {
  const double tol = kEventTimePrecision * std::max(1.0, std::abs(tb));
  std::uintmax_t evaluations = 100;
  const auto [a, b] = boost::math::tools::toms748_solve(
      [&](double t) { return guard(t); }, ta, tb, ga, gb, [tol](double lo, double hi) { return hi - lo <= tol; },
      evaluations);
  (void)a;
  return b;  // the fired side: g(b) <= 0
}

namespace {

// An impact guard measures phi from kPhiMargin below its contact's level at the phase's start, so
// that it is armed at once; its event is then placed where phi comes back down to that level
// (g = kPhiMargin) wherever the contact rose above it after the start. Ending kPhiMargin lower than
// it left would give each bounce m g kPhiMargin of energy, more than a 1 um/s bounce loses. A
// contact that starts a hair above its level and sinks slowly (a grazing domino) has not risen:
// its level would be crossed at once, again and again.
double back_to_level(FunctionRef<double(double)> guard, const Guard& g, double ta, double ga, double t_cross) {
  constexpr double above = kPhiMargin + kLevelNoise;
  double ts = ta, gs = g.risen ? ga : -INFINITY;
  for (double f : {0.5, 0.25, 0.75, 0.125, 0.375, 0.625, 0.875}) {
    if (gs > above) break;
    ts = ta + f * (t_cross - ta);
    gs = guard(ts);
  }
  if (!(gs > above)) return t_cross;  // never above its level: the margin's crossing stands
  const auto level = [&](double t) { return guard(t) - kPhiMargin; };
  return locate_crossing(level, ts, t_cross, gs - kPhiMargin, guard(t_cross) - kPhiMargin);
}

}  // namespace

std::optional<LocatedEvent> locate_event(const ContactModel& contacts, double distance_tolerance, double t0, double t1,
                                         GuardsAt guards_at, GuardsAt interior_at, GuardAt guard_at,
                                         std::vector<Guard>& guards, Eigen::VectorXd& g_prev) {
  const double h = t1 - t0;
  const int n = static_cast<int>(guards.size());
  double ta = t0;
  Eigen::VectorXd ga = g_prev, gb, g_hi;
  for (double s : {0.25, 0.5, 0.75, 1.0}) {
    const double tb = s == 1.0 ? t1 : t0 + s * h;  // the step's end to the bit: the state it accepts
    if (s == 1.0) guards_at(tb, gb);
    else interior_at(tb, gb);
    note_passing(guards, gb);
    check_unarmed_penetration(contacts, guards, gb, distance_tolerance, tb);
    // Only the earliest crossing matters: locate the guard whose linear estimate comes first, then
    // keep only the guards already fired at that time, in the bracket up to it. Guards that cross
    // later in the step are never located (a row of 50 balls had dozens per step, each costing ~40
    // evaluations of every guard).
    double earliest = kGuardInactive, t_hi = tb;
    int crossed = -1;
    g_hi = gb;
    std::vector<bool> located;
    while (true) {
      int first = -1;
      double first_estimate = INFINITY;
      for (int j = 0; j < n; ++j) {
        if (!(guards[j].armed && ga[j] > 0 && g_hi[j] <= 0) || (!located.empty() && located[j])) continue;
        const double estimate = ga[j] / (ga[j] - g_hi[j]);
        if (estimate < first_estimate) first_estimate = estimate, first = j;
      }
      if (first < 0) break;
      const auto guard = [&](double t) { return guard_at(t, first); };
      double t_cross = locate_crossing(guard, ta, t_hi, ga[first], g_hi[first]);
      if (guards[first].bounced) t_cross = back_to_level(guard, guards[first], ta, ga[first], t_cross);
      earliest = t_hi = t_cross;
      crossed = first;
      guards_at(t_hi, g_hi);
      located.resize(n, false);
      located[first] = true;
    }
    if (earliest < kGuardInactive) {
      LocatedEvent event;
      event.t = earliest;
      event.crossed = {guards[crossed].contact, guards[crossed].kind};
      // g_hi holds every guard at t_hi = event.t, read last: the state the caller's event starts from.
      for (int j = 0; j < n; ++j)
        if (guards[j].armed && g_hi[j] <= guard_tolerance(guards[j], distance_tolerance))
          event.fired.push_back({guards[j].contact, guards[j].kind});
      return event;
    }
    arm_guards(guards, gb);
    for (int j = 0; j < n; ++j)
      if (guards[j].kind == GuardKind::impact && gb[j] > kPhiMargin + kLevelNoise && gb[j] != kGuardInactive) guards[j].risen = true;
    ta = tb;
    ga = gb;
  }
  g_prev = ga;
  return std::nullopt;
}

}  // namespace impactsim
