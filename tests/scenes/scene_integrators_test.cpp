// The parts of a scene only the fixed-step integrators read: pins (`constraints`) and the
// integrator keys, with their defaults and their located errors.
#include <gtest/gtest.h>

#include "scenes/scene.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

std::string pendulum(const std::string& constraint, const std::string& simulation) {
  return R"(
world: {gravity: [0, -9.81, 0]}
bodies:
  - {name: bob, joint: {type: planar}, mass: 1, inertia: [0.1, 0.1, 0.1], initial: {x: 1, y: -0.5}}
  - {name: arm, parent: bob, joint: {type: revolute, origin: [0.2, 0, 0]}, mass: 1, inertia: [0.1, 0.1, 0.1]}
constraints:
  - )" + constraint + R"(
simulation: )" + simulation + "\n";
}

TEST(SceneIntegrators, PinHoldsWhereItStartsByDefault) {
  const Scene s = load_scene_text(pendulum("{name: p, type: pin, body: bob, point: [0, 0.5, 0]}",
                                           "{t_end: 1, integrator: drumwright}"),
                                  "pin.yaml");
  ASSERT_EQ(s.system.pins.size(), 1u);
  const PinDef& p = s.system.pins[0];
  EXPECT_EQ(p.body_a, 0);
  EXPECT_EQ(p.body_b, -1);
  EXPECT_EQ(p.point_a, Vec3(0, 0.5, 0));
  EXPECT_LT((p.point_b - Vec3(1, 0, 0)).norm(), 1e-15);  // bob's point in the world at the start
  EXPECT_EQ(s.system.integrator, Integrator::drumwright);
}

TEST(SceneIntegrators, PinToAnotherBodyIsHeldInThatBodysFrame) {
  const Scene s = load_scene_text(pendulum("{name: p, type: pin, body: arm, to: bob, at: [0.2, 0, 0]}",
                                           "{t_end: 1, integrator: time-stepping}"),
                                  "pin.yaml");
  EXPECT_EQ(s.system.pins[0].body_b, 0);
  EXPECT_EQ(s.system.pins[0].point_b, Vec3(0.2, 0, 0));
}

TEST(SceneIntegrators, SchemesAndTheirDefaults) {
  const Scene s = load_scene_text(
      pendulum("{name: p, type: pin, body: bob}",
               "{t_end: 1, integrator: time-stepping, time_stepping: {scheme: trapezoidal, h: 0.002}, "
               "contact: {friction_directions: 12}, drumwright: {problem: min-norm-qp, cone: circular}}"),
      "schemes.yaml");
  EXPECT_EQ(s.system.time_stepping.alpha, 0.5);
  EXPECT_EQ(s.system.time_stepping.h, 0.002);
  EXPECT_EQ(s.system.time_stepping.active_epsilon, 0.0);
  EXPECT_EQ(s.system.drumwright.problem, SoftProblem::min_norm_qp);
  EXPECT_EQ(s.system.drumwright.cone, FrictionConeKind::circular);
  EXPECT_EQ(s.system.drumwright.friction_directions, 12);  // the contact settings' polygon
  EXPECT_EQ(s.system.drumwright.h, 0.01);
  EXPECT_EQ(s.system.drumwright.tangent_damping(), 1e6 / 0.01);
}

TEST(SceneIntegrators, MistakesAreLocated) {
  auto error = [](const std::string& constraint, const std::string& simulation) {
    try {
      load_scene_text(pendulum(constraint, simulation), "bad.yaml");
    } catch (const SceneError& e) {
      return e.key() + ": " + e.message();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error("{name: p, type: pin, body: bob}", "{t_end: 1}"),
            "constraints[0]: pins need integrator: time-stepping or drumwright (the event loop takes joints in the "
            "body tree only)");
  EXPECT_EQ(error("{name: p, type: hinge, body: bob}", "{t_end: 1, integrator: drumwright}"),
            "constraints[0].type: unknown constraint type 'hinge' (known: pin)");
  EXPECT_EQ(error("{name: p, type: pin, body: bob, to: bob}", "{t_end: 1, integrator: drumwright}"),
            "constraints[0].to: a body cannot be pinned to itself");
  EXPECT_EQ(error("{name: p, type: pin, body: bob}", "{t_end: 1, integrator: drumwright, drumwright: {cone: circular}}"),
            "simulation.drumwright.cone: the exact LCP takes a polyhedral cone; the circular cone needs problem: "
            "min-norm-qp");
  EXPECT_EQ(error("{name: p, type: pin, body: bob}", "{t_end: 1, integrator: drumwright, drumwright: {K_n: 0, B_n: 0}}"),
            "simulation.drumwright: K_n and B_n cannot both be zero (the contact would exert no force)");
}

}  // namespace
}  // namespace impactsim
