#include "core/force_guard_samples.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace impactsim {
namespace {

// Guard k's side at value g: above its arming level, or at or below it (NaN: neither).
enum class Side { above, below, unknown };
Side side_of(const Guard& guard, double g) {
  if (g > guard.arm_above) return Side::above;
  if (g <= guard.arm_above) return Side::below;
  return Side::unknown;
}

}  // namespace

void ForceGuardSamples::restart(size_t guards) {
  const auto n = static_cast<Eigen::Index>(guards);
  lo_.setConstant(n, std::numeric_limits<double>::infinity());
  hi_.setConstant(n, -std::numeric_limits<double>::infinity());
  noted_ = false;
  valid_ = true;
}

void ForceGuardSamples::note(const ContactModel& contacts, const std::vector<Guard>& guards, const ModeForces& forces) {
  if (static_cast<Eigen::Index>(guards.size()) != lo_.size()) valid_ = false;
  if (!valid_) return;
  noted_ = true;
  for (size_t k = 0; k < guards.size(); ++k) {
    const GuardKind kind = guards[k].kind;
    if (kind != GuardKind::liftoff && kind != GuardKind::slip) continue;  // Painleve: see the header
    const double g = contact_force_guard(contacts, guards[k], forces);
    if (std::isnan(g)) valid_ = false;
    const auto e = static_cast<Eigen::Index>(k);
    lo_[e] = std::min(lo_[e], g);
    hi_[e] = std::max(hi_[e], g);
  }
}

bool ForceGuardSamples::steady(const std::vector<Guard>& guards, const Eigen::VectorXd& g_start) const {
  const auto n = static_cast<Eigen::Index>(guards.size());
  if (!valid_ || !noted_ || lo_.size() != n || g_start.size() != n) return false;
  for (Eigen::Index k = 0; k < n; ++k) {
    const Guard& guard = guards[static_cast<size_t>(k)];
    if (!reads_forces(guard.kind)) continue;
    const Side side = side_of(guard, g_start[k]);
    const bool kept = side == Side::above ? side_of(guard, lo_[k]) == Side::above
                                          : side == Side::below && !guard.armed && side_of(guard, hi_[k]) == Side::below;
    if (!kept) return false;
  }
  return true;
}

bool ForceGuardSamples::keeps_side(const std::vector<Guard>& guards, const Eigen::VectorXd& g_start,
                                   const Eigen::VectorXd& g) const {
  const auto n = static_cast<Eigen::Index>(guards.size());
  if (g_start.size() != n || g.size() != n) return false;
  for (Eigen::Index k = 0; k < n; ++k) {
    const Guard& guard = guards[static_cast<size_t>(k)];
    if (reads_forces(guard.kind) && side_of(guard, g[k]) != side_of(guard, g_start[k])) return false;
  }
  return true;
}

void ForceGuardSamples::fill(const std::vector<Guard>& guards, const Eigen::VectorXd& g_start,
                             Eigen::VectorXd& g) const {
  for (size_t j = 0; j < guards.size(); ++j) {
    if (!reads_forces(guards[j].kind)) continue;
    const auto k = static_cast<Eigen::Index>(j);
    g[k] = side_of(guards[j], g_start[k]) == Side::above ? std::min(g_start[k], lo_[k]) : std::max(g_start[k], hi_[k]);
  }
}

}  // namespace impactsim
