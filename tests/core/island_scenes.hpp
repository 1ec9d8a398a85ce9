#pragma once
// Small scenes of free bodies above a ground for the island-clock tests.
#include <string>

namespace impactsim::testing {

// A body line for a scene's `bodies:`: a 10 cm box or a sphere of radius 5 cm, 1000 kg/m^3.
inline std::string island_body(const std::string& name, bool box, double x, double y, double z, double vx = 0,
                               const std::string& rpy = "[4, -3, 10]") {
  const std::string shape = box ? "{name: s" + name + ", type: box, size: [0.1, 0.1, 0.1]}"
                                 : "{name: s" + name + ", type: sphere, radius: 0.05}";
  return "  - {name: " + name + ", joint: {type: free}, density: 1000, shapes: [" + shape +
         "], initial: {x: " + std::to_string(x) + ", y: " + std::to_string(y) + ", z: " + std::to_string(z) +
         ", rpy_deg: " + rpy + ", vx: " + std::to_string(vx) + "}}\n";
}

// The scene around `bodies`, island clocks on.
inline std::string island_scene(const std::string& bodies, double t_end) {
  return "world:\n  gravity: [0, 0, -9.81]\n  shapes:\n    - {name: ground, type: halfspace, normal: [0, 0, 1]}\n"
         "bodies:\n" + bodies + "materials: {mu: 0.3, e: 0}\ncollide: all\n"
         "simulation: {t_end: " + std::to_string(t_end) + ", output_interval: 0.01, island_clocks: true}\n";
}

}  // namespace impactsim::testing
