// Valid scenes load into the model they describe; defaults and unit conversions are applied.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>

#include "core/dynamics.hpp"
#include "scenes/scene.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

constexpr double pi = std::numbers::pi;

TEST(SceneLoader, DoublePendulumSceneMatchesItsDescription) {
  const Scene s = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/double_pendulum.yaml");
  EXPECT_EQ(s.name, "double_pendulum");
  ASSERT_EQ(s.system.model.bodies.size(), 2u);
  EXPECT_TRUE(s.system.model.planar);
  EXPECT_EQ(s.system.model.nq, 2);
  EXPECT_EQ(s.system.model.bodies[1].parent, 0);
  EXPECT_EQ(s.system.model.q_names, (std::vector<std::string>{"upper.theta", "lower.theta"}));
  EXPECT_EQ(s.system.model.v_names, (std::vector<std::string>{"upper.omega", "lower.omega"}));
  EXPECT_NEAR(s.initial.q[0], pi / 2, 1e-15);
  EXPECT_DOUBLE_EQ(s.system.simulation.ode.rtol, 1e-10);
  EXPECT_DOUBLE_EQ(s.system.simulation.t_end, 10.0);
  // Released horizontal: both masses at the pivot's height, so U = 0 at the start.
  EXPECT_NEAR(energies(s.system.model, s.initial.q, s.initial.v).second, 0.0, 1e-12);
}

TEST(SceneLoader, EveryShippedSceneLoads) {
  int count = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes")) {
    if (e.path().extension() != ".yaml") continue;
    EXPECT_NO_THROW(load_scene(e.path().string())) << e.path();
    ++count;
  }
  EXPECT_GE(count, 1);
}

TEST(SceneLoader, DefaultsApply) {
  const Scene s = load_scene_text(R"(
bodies:
  - name: puck
    joint: {type: planar}
    mass: 2
    inertia: [0.1, 0.1, 0.2]
simulation: {t_end: 1}
)", "defaults.yaml");
  EXPECT_EQ(s.name, "defaults");
  EXPECT_TRUE(s.system.model.planar);
  EXPECT_EQ(s.system.model.gravity, Vec3(0, -9.81, 0));  // planar default
  EXPECT_DOUBLE_EQ(s.system.simulation.output_interval, 0.01);
  EXPECT_DOUBLE_EQ(s.system.simulation.ode.rtol, 1e-8);
  EXPECT_EQ(s.output.precision, 12);
  EXPECT_EQ(s.initial.q, Eigen::Vector3d::Zero());
}

TEST(SceneLoader, ThreeDimensionalGravityDefaultAndFreeOrientation) {
  const Scene s = load_scene_text(R"(
bodies:
  - name: box
    joint: {type: free}
    density: 500
    shapes: [{type: box, size: [1, 2, 3]}]
    initial: {z: 2, rpy_deg: [0, 0, 90], wz_deg: 180, vx: 1}
simulation: {t_end: 1}
)", "free.yaml");
  EXPECT_FALSE(s.system.model.planar);
  EXPECT_EQ(s.system.model.gravity, Vec3(0, 0, -9.81));
  const Body& b = s.system.model.bodies[0];
  EXPECT_DOUBLE_EQ(b.mass, 3000.0);
  EXPECT_NEAR(b.inertia(0, 0), 3000.0 * (4 + 9) / 12, 1e-9);
  EXPECT_DOUBLE_EQ(s.initial.q[2], 2.0);
  const Quat expected(Eigen::AngleAxisd(pi / 2, Vec3::UnitZ()));
  EXPECT_NEAR(s.initial.q[3], expected.w(), 1e-15);
  EXPECT_NEAR(s.initial.q[6], expected.z(), 1e-15);
  EXPECT_NEAR(s.initial.v[5], pi, 1e-15);
  EXPECT_DOUBLE_EQ(s.initial.v[0], 1.0);
}

TEST(SceneLoader, QuaternionIsNormalized) {
  const Scene s = load_scene_text(R"(
bodies:
  - name: b
    joint: {type: free}
    mass: 1
    inertia: [1, 1, 1]
    initial: {qw: 2, qx: 0, qy: 0, qz: 0}
simulation: {t_end: 1}
)", "q.yaml");
  EXPECT_DOUBLE_EQ(s.initial.q[3], 1.0);
}

TEST(SceneLoader, MassWithShapesTakesInertiaFromTheShapes) {
  const Scene s = load_scene_text(R"(
bodies:
  - name: disk
    joint: {type: planar}
    mass: 3
    shapes:
      - {type: cylinder, radius: 0.5, length: 0.1, position: [0.2, 0, 0]}
simulation: {t_end: 1}
)", "disk.yaml");
  const Body& b = s.system.model.bodies[0];
  EXPECT_DOUBLE_EQ(b.mass, 3.0);
  EXPECT_NEAR(b.com.x(), 0.2, 1e-15);
  EXPECT_NEAR(b.inertia(2, 2), 0.5 * 3 * 0.25, 1e-12);
  EXPECT_EQ(s.system.contacts.geometries().size(), 1u);
  EXPECT_EQ(s.system.contacts.geometries()[0].name, "disk_0");
  EXPECT_EQ(s.system.contacts.geometries()[0].body, 0);
}

TEST(SceneLoader, WorldShapesAndJointPlacement) {
  const Scene s = load_scene_text(R"(
world:
  shapes:
    - {name: ground, type: halfspace, normal: [0, 0, 2], offset: 0.5}
bodies:
  - name: arm
    joint: {type: revolute, origin: [1, 2, 3], rpy_deg: [90, 0, 0], axis: [0, 2, 0]}
    mass: 1
    com: [0, 0, 1]
    inertia: [0.01, 0.01, 0.01]
simulation: {t_end: 1}
)", "arm.yaml");
  ASSERT_EQ(s.system.contacts.geometries().size(), 1u);
  EXPECT_EQ(s.system.contacts.geometries()[0].body, -1);
  EXPECT_EQ(s.system.contacts.geometries()[0].shape.normal, Vec3::UnitZ());
  const Joint& j = s.system.model.bodies[0].joint;
  EXPECT_EQ(j.axis, Vec3::UnitY());
  EXPECT_EQ(j.origin, Vec3(1, 2, 3));
  EXPECT_LT((j.rotation * Vec3::UnitY() - Vec3::UnitZ()).norm(), 1e-15);  // roll 90: y -> z
  EXPECT_FALSE(s.system.model.planar);
}

TEST(SceneLoader, RockingBlockContactsAreTheNamedCorners) {
  const Scene s = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block.yaml");
  ASSERT_EQ(s.system.contacts.contacts().size(), 2u);
  EXPECT_EQ(s.system.contacts.contact(0).name, "A");
  EXPECT_EQ(s.system.contacts.contact(0).point, Vec3(-0.5, -1, 0));
  EXPECT_EQ(s.system.contacts.contact(1).name, "B");
  EXPECT_DOUBLE_EQ(s.system.contacts.contact(1).mu, 1.0);
  EXPECT_EQ(s.system.contacts.contact(1).body_a, 0);
  EXPECT_EQ(s.system.contacts.geometries()[s.system.contacts.contact(1).geometry_b].name, "ground");
  EXPECT_NEAR(s.system.model.bodies[0].inertia(2, 2), 5.0 / 12, 1e-15);
  EXPECT_EQ(s.law, "routh");
  EXPECT_DOUBLE_EQ(s.laws.of("routh").number("h"), 0.3);
  EXPECT_EQ(s.laws.of("routh").integer("steps"), 10);
}

TEST(SceneLoader, ErrorsInTextNameTheStandInFileName) {
  try {
    load_scene_text("bodies: []\nsimulation: {t_end: 1}\n", "inline.yaml");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.file(), "inline.yaml");
    EXPECT_EQ(e.line(), 1);
    EXPECT_NE(e.message().find("at least one body"), std::string::npos);
  }
}

}  // namespace
}  // namespace impactsim
