#include "core/event_locate.hpp"

#include <algorithm>
#include <cmath>

namespace impactsim {

// Brent's method (Brent 1973; inverse quadratic, secant and bisection steps).
double locate_crossing(FunctionRef<double(double)> guard, double ta, double tb, double ga, double gb) {
  const double tol = 1e-12 * std::max(1.0, std::abs(tb));
  double a = ta, fa = ga, b = tb, fb = gb, c = a, fc = fa, d = b - a, e = d;
  for (int it = 0; it < 100; ++it) {
    if ((fb > 0) == (fc > 0)) {  // keep b and c on opposite sides of the crossing
      c = a;
      fc = fa;
      d = e = b - a;
    }
    if (std::abs(fc) < std::abs(fb)) {  // b is the best estimate so far
      a = b, fa = fb;
      b = c, fb = fc;
      c = a, fc = fa;
    }
    const double m = 0.5 * (c - b);
    if (std::abs(m) <= 0.5 * tol || fb == 0) break;
    if (std::abs(e) >= tol && std::abs(fa) > std::abs(fb)) {
      double p, q, r, sb = fb / fa;
      if (a == c) {  // secant
        p = 2 * m * sb;
        q = 1 - sb;
      } else {  // inverse quadratic interpolation
        q = fa / fc;
        r = fb / fc;
        p = sb * (2 * m * q * (q - r) - (b - a) * (r - 1));
        q = (q - 1) * (r - 1) * (sb - 1);
      }
      if (p > 0) q = -q;
      else p = -p;
      if (2 * p < std::min(3 * m * q - std::abs(0.5 * tol * q), std::abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = e = m;
      }
    } else {
      d = e = m;
    }
    a = b, fa = fb;
    b += std::abs(d) > 0.5 * tol ? d : (m > 0 ? 0.5 * tol : -0.5 * tol);
    fb = guard(b);
  }
  // The fired side: of b and c, the one with g <= 0.
  return fb <= 0 ? b : c;
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
