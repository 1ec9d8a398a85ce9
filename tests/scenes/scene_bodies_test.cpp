// The bodies of a scene: shapes with their mass properties, joints placed and oriented, initial
// coordinates in radians or degrees and quaternions normalized.
#include <gtest/gtest.h>

#include <numbers>

#include "scenes/scene.hpp"
#include "scenes/scene_bodies.hpp"

namespace impactsim {
namespace {

constexpr double pi = std::numbers::pi;

TEST(SceneBodies, ThreeDimensionalGravityDefaultAndFreeOrientation) {
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

TEST(SceneBodies, QuaternionIsNormalized) {
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

TEST(SceneBodies, MassWithShapesTakesInertiaFromTheShapes) {
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

TEST(SceneBodies, WorldShapesAndJointPlacement) {
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

TEST(SceneBodies, AngleCoordinatesAreThoseOfTurningJoints) {
  EXPECT_TRUE(is_angle(JointType::planar, "theta"));
  EXPECT_TRUE(is_angle(JointType::revolute, "omega"));
  EXPECT_TRUE(is_angle(JointType::free, "wz"));
  EXPECT_FALSE(is_angle(JointType::free, "vx"));
  EXPECT_FALSE(is_angle(JointType::prismatic, "theta"));
  EXPECT_DOUBLE_EQ(180 * kDeg, pi);
}

TEST(SceneBodies, AnInertiaIsThreeOrSixNumbersAndPhysical) {
  const YAML::Node doc = parse_yaml_text("a: [1, 2, 3]\nb: [1, 1, 1, 0.1, 0, 0]\nc: [1, 2]\nd: [1, 1, 3]\n", "i.yaml");
  const Field f("i.yaml", doc, "");
  EXPECT_EQ(read_inertia(f.child("a")), Vec3(1, 2, 3).asDiagonal().toDenseMatrix());
  EXPECT_EQ(read_inertia(f.child("b"))(0, 1), 0.1);
  EXPECT_THROW(read_inertia(f.child("c")), SceneError);  // neither 3 nor 6 numbers
  EXPECT_THROW(read_inertia(f.child("d")), SceneError);  // 3 > 1 + 1: no rigid body has it
}

}  // namespace
}  // namespace impactsim
