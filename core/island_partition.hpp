#pragma once
// Which bodies may run on their own clocks, and until when (core/island_clocks.hpp).
//
// Two bodies interact only through contact, so groups of bodies that cannot touch before a time H
// are independent systems until H. The bound comes from energy: with no force that adds energy
// (gravity, rigid contacts, impacts of restitution at most 1), a group's kinetic energy never
// exceeds E = its kinetic energy now plus the potential energy it can still lose, each body's centre
// of mass at least its inscribed height above the ground. Body b then moves no point of its
// bounding sphere (radius rho about the centre of mass) faster than
//   s_b = sqrt(2 E (1 / m_b + rho_b^2 / I_min,b))        (Cauchy-Schwarz on m v^2 + I w^2 <= 2 E),
// and two bodies d apart cannot touch before d / (s_a + s_b). A body in flight (a group of its own,
// clear of the world's shapes) is moved by gravity alone until it could reach a world shape: two
// such bodies fall alike, so d closes no faster than their centres' relative speed plus their
// turns (|w| <= sqrt(2 E_rot / I_min) for a torque-free body), and one against another body no
// faster than its own speed, turn and g t plus the other's s. The later of the two bounds holds.
// Sign conventions: "up" is -gravity.
#include <limits>
#include <optional>
#include <vector>

#include "core/kinematics.hpp"
#include "core/system.hpp"

namespace impactsim {

// What the bound needs of each body, fixed for a model.
struct BodyReach {
  double mass = 0.0;        // [kg]
  double inertia_min = 0.0; // smallest principal moment about the centre of mass [kg m^2]
  double radius = 0.0;      // bounding radius of its shapes about the centre of mass [m]
  double inscribed = 0.0;   // least height of its centre of mass above a ground it rests on [m]
};
struct IslandModel {
  std::vector<BodyReach> bodies;
  Vec3 up = Vec3::UnitZ();  // -gravity, unit
  double g = 0.0;           // |gravity| [m/s^2]
  double ground = 0.0;      // height of the highest ground halfspace along up [m]
};

// The bound's model of sys, where it applies: the event-driven integrator, at least two bodies,
// every one a free root with mass and inertia, a world halfspace facing up against gravity, and no
// contact gated by another. nullopt otherwise.
std::optional<IslandModel> island_model(const System& sys);

struct Partition {
  std::vector<int> group;  // per body: the smallest body of its group
  double horizon = 0.0;    // [s] from now: no two groups can touch before (infinity: never)
};

// Groups at the poses and velocities kin (update_velocities done): bodies closer than the distance
// their speed bounds can close in `window` seconds share a group, pairs of a `previous` group (may
// be empty) within twice that (so that groups do not split and merge again at every sync). Every
// other pair's time to touch is above `window`; the horizon is the least of them, infinity where
// it exceeds `longest` [s] (a caller that needs no sync beyond it). Found by sweeping bounding
// spheres (collision/sphere_sweep.hpp): a sync costs the near pairs, not all n^2.
Partition partition_islands(const System& sys, const IslandModel& im, const Kinematics& kin,
                            const std::vector<int>& previous, double window,
                            double longest = std::numeric_limits<double>::infinity());

}  // namespace impactsim
