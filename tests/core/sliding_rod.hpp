#pragma once
// A planar rod sliding on the ground: the Painleve paradox's scene, for the tests of the event loop
// (tests/core/hybrid_friction_test.cpp) and of its mode choice (tests/core/event_handling_test.cpp).
#include <string>

namespace impactsim::testing {

// A uniform rod (length 2 m, 1 kg) at 30 degrees to the ground, its lower end sliding at vx m/s
// with friction mu. With mu > 2.5, sliding towards the rod's lower side (vx < 0) has no consistent
// contact force (1 + 3 cos^2 a - 3 mu sin a cos a < 0 at a = 30 degrees).
inline std::string sliding_rod(double mu, double vx) {
  return R"(
world:
  planar: true
  shapes: [{name: ground, type: halfspace, normal: [0, 1, 0]}]
bodies:
  - name: rod
    joint: {type: planar}
    mass: 1
    inertia: [0.3333333333333333, 0.0001, 0.3333333333333333]
    initial: {y: 0.5, theta_deg: -60, vx: )" + std::to_string(vx) + R"(}
materials: {mu: )" + std::to_string(mu) + R"(}
contacts:
  - {name: end, body: rod, point: [0, -1, 0], with: ground}
simulation: {t_end: 1.5, rtol: 1.0e-10, atol: 1.0e-12}
)";
}

}  // namespace impactsim::testing
