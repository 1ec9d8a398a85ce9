#pragma once
// The scene's keys over a URDF robot's links (robot.initial, robot.damping, robot.mass,
// robot.com, robot.inertia, robot.origin): link name -> value, each replacing what the URDF gives,
// so --set, sweeps and a batch's randomize_keys reach a robot without editing its file. The robot
// is the model's first robot_bodies bodies (scenes/scene_urdf.hpp reads it).
#include <cstddef>

#include "core/model.hpp"
#include "core/state.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {

// Every robot.* key that `robot` holds, applied to model and the initial state.
void read_robot_keys(const Field& robot, Model& model, size_t robot_bodies, State& initial);

}  // namespace impactsim
