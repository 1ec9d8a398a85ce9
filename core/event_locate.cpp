#include "core/event_locate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <boost/math/tools/toms748_solve.hpp>

namespace impactsim {

// Alefeld, Potra and Shi's Algorithm 748 (ACM TOMS 21, 1995), as Boost.Math implements it: it
// keeps a bracket [a, b] with g(a) > 0 >= g(b) and converges at least as fast as Brent's method.
double locate_crossing(FunctionRef<double(double)> guard, double ta, double tb, double ga, double gb) {
  const double tol = 1e-12 * std::max(1.0, std::abs(tb));
  std::uintmax_t evaluations = 100;
  const auto [a, b] = boost::math::tools::toms748_solve(
      [&](double t) { return guard(t); }, ta, tb, ga, gb, [tol](double lo, double hi) { return hi - lo <= tol; },
      evaluations);
  (void)a;
  return b;  // the fired side: g(b) <= 0
}

std::optional<LocatedEvent> locate_event(const ContactModel& contacts, double distance_tolerance, double t0, double t1,
                                         GuardsAt guards_at, std::vector<Guard>& guards, Eigen::VectorXd& g_prev) {
  const double h = t1 - t0;
  const int n = static_cast<int>(guards.size());
  double ta = t0;
  Eigen::VectorXd ga = g_prev, gb, g;
  for (double s : {0.25, 0.5, 0.75, 1.0}) {
    const double tb = t0 + s * h;
    guards_at(tb, gb);
    note_passing(guards, gb);
    check_unarmed_penetration(contacts, guards, gb, distance_tolerance, tb);
    double earliest = kGuardInactive;
    for (int j = 0; j < n; ++j) {
      if (!(guards[j].armed && ga[j] > 0 && gb[j] <= 0)) continue;
      const auto guard = [&](double t) {
        guards_at(t, g);
        return g[j];
      };
      earliest = std::min(earliest, locate_crossing(guard, ta, tb, ga[j], gb[j]));
    }
    if (earliest < kGuardInactive) {
      LocatedEvent event;
      event.t = earliest;
      guards_at(event.t, gb);
      for (int j = 0; j < n; ++j)
        if (guards[j].armed && gb[j] <= guard_tolerance(guards[j], distance_tolerance))
          event.fired.push_back({guards[j].contact, guards[j].kind});
      return event;
    }
    arm_guards(guards, gb);
    ta = tb;
    ga = gb;
  }
  g_prev = ga;
  return std::nullopt;
}

}  // namespace impactsim
