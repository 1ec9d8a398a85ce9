#include "core/guards.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/events.hpp"

namespace impactsim {

bool behind(const ContactModel& contacts, const ContactModes& modes, const Kinematics& kin,
            const std::vector<ContactFrame>& frames, int i) {
  const int j = contacts.contact(i).only_ahead_of;
  if (j < 0 || modes.mode[i] != ContactMode::open) return false;
  return (feature_point(contacts, kin, i) - feature_point(contacts, kin, j)).dot(frames[j].tangent1) <= 0;
}

void phase_guards(const ContactModel& contacts, const ContactModes& modes, const std::vector<double>& phi,
                  double distance_tolerance, const std::vector<int>& followed, std::vector<Guard>& guards) {
  guards.clear();
  for (int i : followed) {
    switch (modes.mode[i]) {
      case ContactMode::open: {
        Guard g{i, GuardKind::impact};
        // A gated contact below the surface (a swing foot past mid-stance) arms once it is clear.
        g.floor = (gated(contacts, i) && phi[i] < 0 ? 0.0 : std::min(phi[i], 0.0)) - kPhiMargin;
        g.passing = gated(contacts, i) && phi[i] < -distance_tolerance;
        guards.push_back(g);
        break;
      }
      case ContactMode::stick:
        guards.push_back({i, GuardKind::liftoff});
        guards.push_back({i, GuardKind::slip});
        break;
      case ContactMode::slide:
        guards.push_back({i, GuardKind::liftoff});
        if (contacts.contact(i).mu > 0) {  // frictionless: always slides, and never jams
          guards.push_back({i, GuardKind::stick});
          guards.push_back({i, GuardKind::painleve});
          if (modes.holds(i)) guards.push_back({i, GuardKind::follow});
          else if (!contacts.planar() && modes.hold_speed > 0) guards.push_back({i, GuardKind::hold});
        }
        break;
    }
  }
}

double contact_force_guard(const ContactModel& contacts, const Guard& guard, const ModeForces& forces) {
  const int i = guard.contact;
  if (guard.kind == GuardKind::liftoff) return forces.lambda_n[i];
  return contacts.contact(i).mu * forces.lambda_n[i] - forces.lambda_t.row(i).norm();
}

void evaluate_guards(const ContactModel& contacts, const ContactModes& modes, const std::vector<Guard>& guards,
                     const GuardInputs& in, Eigen::VectorXd& g, bool with_forces) {
  g.resize(static_cast<Eigen::Index>(guards.size()));
  const int td = in.jac.rows_per_contact - 1;
  for (size_t k = 0; k < guards.size(); ++k) {
    const int i = guards[k].contact;
    if (!with_forces && reads_forces(guards[k].kind)) {
      g[k] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    switch (guards[k].kind) {
      case GuardKind::impact:
        g[k] = gated(contacts, i) && behind(contacts, modes, in.kin, in.frames, i) ? kGuardInactive
                                                                                   : in.frames[i].phi - guards[k].floor;
        break;
      case GuardKind::liftoff:
      case GuardKind::slip: g[k] = contact_force_guard(contacts, guards[k], in.forces); break;
      case GuardKind::stick: {
        const TangentVector u_t = in.jac.rows_times(i, 1, td, in.v);
        g[k] = modes.slip[i].head(u_t.size()).dot(u_t) - guards[k].floor;
        break;
      }
      case GuardKind::follow: g[k] = modes.hold_speed - in.jac.rows_times(i, 1, td, in.v).norm(); break;
      case GuardKind::hold: g[k] = in.jac.rows_times(i, 1, td, in.v).norm() - kHoldFraction * modes.hold_speed; break;
      case GuardKind::painleve: {
        thread_local Eigen::VectorXd x;
        g[k] = painleve_margin(in.forces, i, x) - guards[k].floor;
        break;
      }
    }
  }
}

void note_passing(std::vector<Guard>& guards, const Eigen::VectorXd& g) {
  for (size_t k = 0; k < guards.size(); ++k)
    if (guards[k].kind == GuardKind::impact && g[k] == kGuardInactive) guards[k].passing = true;
}

void set_force_floors(std::vector<Guard>& guards, const Eigen::VectorXd& g) {
  double largest = 0.0;
  for (size_t k = 0; k < guards.size(); ++k)
    if (guards[k].kind == GuardKind::liftoff) largest = std::max(largest, std::abs(g[k]));
  const double floor = 1e-9 * largest + 1e-12;
  for (Guard& guard : guards)
    if (guard.kind == GuardKind::liftoff || guard.kind == GuardKind::slip) guard.arm_above = floor;
}

void set_painleve_floors(std::vector<Guard>& guards, Eigen::VectorXd& g) {
  for (size_t k = 0; k < guards.size(); ++k) {
    if (guards[k].kind != GuardKind::painleve || !(g[k] > 0) || g[k] == kGuardInactive) continue;
    guards[k].floor = kPainleveFraction * g[k];
    g[k] -= guards[k].floor;
  }
}

void set_stick_floors(std::vector<Guard>& guards, double velocity_tolerance, Eigen::VectorXd& g) {
  for (size_t k = 0; k < guards.size(); ++k) {
    if (guards[k].kind != GuardKind::stick || !(std::abs(g[k]) < velocity_tolerance)) continue;
    guards[k].floor = -kSlipNoise;
    g[k] += kSlipNoise;
  }
}

void arm_guards(std::vector<Guard>& guards, const Eigen::VectorXd& g) {
  for (size_t k = 0; k < guards.size(); ++k)
    guards[k].armed = guards[k].armed || (g[k] > guards[k].arm_above && g[k] != kGuardInactive);
}

std::string_view guard_kind_name(GuardKind kind) {
  switch (kind) {
    case GuardKind::impact: return "impact";
    case GuardKind::liftoff: return "liftoff";
    case GuardKind::slip: return "slip";
    case GuardKind::stick: return "stick";
    case GuardKind::painleve: return "painleve";
    case GuardKind::follow: return "follow";
    case GuardKind::hold: return "hold";
  }
  return "?";
}

double guard_tolerance(const Guard& guard, double distance_tolerance) {
  return guard.kind == GuardKind::impact ? distance_tolerance : 0.0;
}

void check_unarmed_penetration(const ContactModel& contacts, const std::vector<Guard>& guards, const Eigen::VectorXd& g,
                               double distance_tolerance, double t) {
  for (size_t k = 0; k < guards.size(); ++k) {
    const Guard& guard = guards[k];
    if (guard.kind != GuardKind::impact || guard.armed || guard.passing || !(g[k] < -10 * distance_tolerance)) continue;
    throw SimulationError(t, StopReason::missed_impact, "contact '" + contacts.contact(guard.contact).name + "' penetrated " + format_time(-g[k]) +
                                 " m at t = " + format_time(t) +
                                 " s without an impact being detected (try a smaller simulation.max_step)");
  }
}

}  // namespace impactsim
