#pragma once
// URDF robots in scenes: the `robot` section names a URDF file whose links become bodies (with
// their joints, inertias and collision geometry) ahead of the scene's own `bodies`.
//
// The mapping (URDF's frames are impactsim's: a child link's frame is its joint's frame):
//   link             -> Body: mass and inertia from <inertial> (inertia rotated from the inertial
//                       frame into link axes, com = the inertial origin); no <inertial>: massless
//   joint revolute, continuous -> revolute about <axis> (limits, dynamics and mimic ignored)
//   joint prismatic  -> prismatic along <axis> (limits ignored)
//   joint fixed      -> fixed;  floating -> free;  planar -> planar (its <axis>, the plane's
//                       normal, must be the joint frame's z axis)
//   joint <origin>   -> Joint::origin and Joint::rotation (the joint frame in the parent link)
//   <collision>      -> shapes: box, sphere, cylinder (along z, centred), mesh (a file relative to
//                       the URDF, scaled; convex, or its hull with `mesh_hull: true`)
// A root link named `world` is the world: its joints attach their children to the world and its
// collision shapes are static. Any other root link hangs from the world by the scene's `base`
// joint (fixed, free or planar). Bodies follow the links' order in the file, parents first.
#include <string>
#include <vector>

#include "collision/shape.hpp"
#include "core/model.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {

// Appends the robot of section `robot` (its `urdf`, `base` and `mesh_hull`) to model.bodies and its
// collision shapes to `geometries` (body indices into model.bodies). `scene_file` locates the URDF.
// Throws SceneError: at the `robot` keys for a missing or unreadable file, and at the URDF's own
// file, line and element ("joint 'knee'") for what is wrong inside it.
// Returns where the URDF came from, for provenance.
struct RobotSource {
  std::string urdf;    // the URDF's path as read (the scene file's directory joined with `urdf`)
  std::string sha256;  // of its text
  int links = 0;       // links that became bodies
  std::vector<std::string> ignored;  // what of the URDF impactsim does not model, one line per kind (commands warn)
};
RobotSource read_robot(const Field& robot, const std::string& scene_file, Model& model, std::vector<Geometry>& geometries);

}  // namespace impactsim
