#pragma once
// A scene shared by the tests of settled and sleeping islands: balls of radius 0.1 m resting on the
// ground 1 m apart (contact k: ball k on the ground), mu = 0.5, e = 0. Eleven of them (nv = 66)
// make a model large enough for both.
#include <string>

#include "scenes/scene.hpp"

namespace impactsim::testing {

// `balls` balls on the ground; with drop_height > 0 one more over the last, its bottom drop_height
// above that ball's top, or with `stacked` resting on it (the last contact: it on that ball); where
// `rolling` the first rolls at 0.5 m/s along x.
inline Scene resting_balls(int balls, double drop_height = 0.0, bool rolling = false, bool stacked = false) {
  std::string bodies = "bodies:\n", contacts = "contacts:\n";
  for (int k = 0; k < balls; ++k) {
    const std::string n = std::to_string(k);
    bodies += "  - {name: b" + n + ", joint: {type: free}, density: 1000, shapes: [{name: s" + n +
              ", type: sphere, radius: 0.1}], initial: {x: " + n + ", z: 0.1" +
              (rolling && k == 0 ? ", vx: 0.5, wy: 5" : "") + "}}\n";
    contacts += "  - {name: c" + n + ", shape: s" + n + ", with: ground}\n";
  }
  if (drop_height > 0 || stacked) {
    const std::string last = std::to_string(balls - 1);
    bodies += "  - {name: top, joint: {type: free}, density: 1000, shapes: [{name: top_shape, type: sphere, radius: 0.1}], "
              "initial: {x: " + last + ", z: " + std::to_string(0.3 + drop_height) + "}}\n";
    contacts += "  - {name: on_top, shape: top_shape, with: s" + last + "}\n";
  }
  return load_scene_text(R"(
world:
  gravity: [0, 0, -9.81]
  shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]
materials: {mu: 0.5, e: 0}
simulation: {t_end: 1.0, output_interval: 0.01}
)" + bodies + contacts,
                         "balls");
}

}  // namespace impactsim::testing
