#pragma once
// A scene shared by the event-loop tests: five balls (radius 0.1 m) at rest in a touching row on the
// ground, a cue ball rolling in at 2 m/s from 0.1 m away (first impact at t = 0.05 s); mu = 0,
// e = 0.9, `collide: all` (6 ground contacts, 15 ball pairs of which 5 touch).
#include <string>

namespace impactsim::testing {

inline std::string ball_row_scene(double t_end) {
  std::string text = R"(
world:
  gravity: [0, 0, -9.81]
  shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]
bodies:
  - {name: cue, joint: {type: free}, density: 1000, shapes: [{name: cue, type: sphere, radius: 0.1}], initial: {x: -0.3, z: 0.1, vx: 2}}
)";
  for (int i = 0; i < 5; ++i)
    text += "  - {name: b" + std::to_string(i) + ", joint: {type: free}, density: 1000, shapes: [{name: b" + std::to_string(i) +
            ", type: sphere, radius: 0.1}], initial: {x: " + std::to_string(0.2 * i) + ", z: 0.1}}\n";
  return text + "materials: {mu: 0.0, e: 0.9}\ncollide: all\nsimulation: {t_end: " + std::to_string(t_end) + "}\n";
}

}  // namespace impactsim::testing
