// A scene's robot.* keys over a URDF robot's links: each replaces what the URDF says, by the link's
// name, as --set, sweeps and randomize_keys reach them; every mistake is located at its key.
#include <gtest/gtest.h>

#include "scenes/scene.hpp"
#include "scenes/scene_overrides.hpp"
#include "scenes/scene_robot.hpp"
#include "tests/scenes/urdf_file.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST_F(SceneUrdfFile, RobotMassReplacesALinksMassAndScalesItsInertia) {
  const std::string urdf = robot(kBlock + R"(  <link name="tip">
    <inertial><origin xyz="0 0 0.5"/><mass value="0.5"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.3"/></inertial>
  </link>
  <link name="ghost"/>
  <joint name="j" type="continuous"><parent link="block"/><child link="tip"/><axis xyz="1 0 0"/></joint>
  <joint name="k" type="fixed"><parent link="tip"/><child link="ghost"/></joint>
)");
  const Model before = load(urdf, "base: free").system.model;
  const Model after = load(urdf, "base: free\n  mass: {block: 3, tip: 2}").system.model;
  EXPECT_EQ(after.bodies[0].mass, 3.0);
  EXPECT_TRUE(after.bodies[0].inertia.isApprox(before.bodies[0].inertia * 1.5, 1e-15));
  EXPECT_EQ(after.bodies[1].mass, 2.0);
  EXPECT_TRUE(after.bodies[1].inertia.isApprox(before.bodies[1].inertia * 4.0, 1e-15));
  EXPECT_EQ(after.bodies[1].com, before.bodies[1].com);
  EXPECT_EQ(error(urdf, "base: free\n  mass: {ghost: 1}"),
            "scene.yaml:4 robot.mass.ghost: 'ghost' is massless in the URDF (no <inertial>): its inertia cannot be "
            "scaled; give the link an <inertial> there, or its robot.inertia");
  EXPECT_EQ(error(urdf, "base: free\n  mass: {leg: 1}"), "scene.yaml:4 robot.mass.leg: 'leg' is not a link of the robot");
  EXPECT_EQ(error(urdf, "base: free\n  mass: {tip: 0}").substr(0, 34), "scene.yaml:4 robot.mass.tip: must ");
  // A batch may draw a link's mass: the key is checked at both ends of its range on loading.
  EXPECT_EQ(error(urdf, "base: free", "randomize_keys:\n  robot.mass.tip: {uniform: [1, 2]}\n"), "accepted");
  EXPECT_NE(error(urdf, "base: free", "randomize_keys:\n  robot.mass.ghost: {uniform: [1, 2]}\n"), "accepted");
}

// robot.com, robot.inertia and robot.origin replace what the URDF says (what --set, sweeps and
// randomize_keys reach): the model is the one of the URDF with those values written in.
TEST_F(SceneUrdfFile, RobotComInertiaAndOriginReplaceTheUrdfs) {
  const auto urdf = [](const std::string& com, const std::string& inertia, const std::string& origin) {
    return robot(kBlock + "  <link name=\"tip\">\n    <inertial><origin xyz=\"" + com +
                 "\"/><mass value=\"0.5\"/><inertia " + inertia + "/></inertial>\n  </link>\n  <link name=\"ghost\"/>\n" +
                 "  <joint name=\"j\" type=\"continuous\"><origin xyz=\"" + origin +
                 "\" rpy=\"0.1 0 0\"/><parent link=\"block\"/><child link=\"tip\"/><axis xyz=\"1 0 0\"/></joint>\n" +
                 "  <joint name=\"k\" type=\"fixed\"><parent link=\"tip\"/><child link=\"ghost\"/></joint>\n");
  };
  const std::string given = urdf("0 0 0.5", R"(ixx="0.1" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.3")", "0 0 0.4");
  const Scene edited = load(urdf("0 0.1 0.7", R"(ixx="0.3" ixy="0.01" ixz="0" iyy="0.25" iyz="0" izz="0.1")", "0.2 0 0.9"));
  const std::string keys = "base: free\n  com: {tip: [0, 0.1, 0.7]}\n  inertia: {tip: [0.3, 0.25, 0.1, 0.01, 0, 0]}\n  "
                           "origin: {tip: [0.2, 0, 0.9]}";
  const Scene overridden = load(given, keys);
  expect_same_model(edited, overridden);
  EXPECT_EQ(overridden.system.model.bodies[1].joint.rotation, edited.system.model.bodies[1].joint.rotation);  // rpy stays
  // The same through --set, as a run, a sweep or a batch gives it.
  write("robot.urdf", given);
  write("scene.yaml", "robot:\n  urdf: robot.urdf\n  base: free\nsimulation: {t_end: 1}\n");
  const Scene set = load_scene((dir_ / "scene.yaml").string(),
                               {parse_override("robot.com.tip=[0, 0.1, 0.7]"),
                                parse_override("robot.inertia.tip=[0.3, 0.25, 0.1, 0.01, 0, 0]"),
                                parse_override("robot.origin.tip=[0.2, 0, 0.9]")});
  expect_same_model(edited, set);
  // With robot.mass the inertia is taken as given, not scaled; a massless link may then get a mass.
  const Model heavier = load(given, "base: free\n  mass: {tip: 2, ghost: 1}\n  inertia: {tip: [0.3, 0.2, 0.1], ghost: [1, 1, 1]}")
                            .system.model;
  EXPECT_EQ(heavier.bodies[1].mass, 2.0);
  EXPECT_EQ(heavier.bodies[1].inertia, Vec3(0.3, 0.2, 0.1).asDiagonal().toDenseMatrix());
  EXPECT_EQ(heavier.bodies[2].mass, 1.0);
  EXPECT_EQ(heavier.bodies[2].inertia, Mat3::Identity());
  // Located errors.
  EXPECT_EQ(error(given, "base: free\n  com: {tip: [0, 1]}"),
            "scene.yaml:4 robot.com.tip: expected a list of 3 numbers, found 2 entries");
  EXPECT_EQ(error(given, "base: free\n  com: 3"), "scene.yaml:4 robot.com: expected a map from link names to their centres of mass [x, y, z]");
  EXPECT_EQ(error(given, "base: free\n  origin: {leg: [0, 0, 1]}"), "scene.yaml:4 robot.origin.leg: 'leg' is not a link of the robot");
  EXPECT_EQ(error(given, "base: free\n  inertia: {tip: [1, 1, -1]}").substr(0, 55),
            "scene.yaml:4 robot.inertia.tip: inertia is not positive");
  EXPECT_EQ(error(given, "base: free\n  inertia: {tip: [1, 1]}"),
            "scene.yaml:4 robot.inertia.tip: expected [Ixx, Iyy, Izz] or [Ixx, Iyy, Izz, Ixy, Ixz, Iyz], found 2 numbers");
  // A batch may draw a joint's origin: the key is checked at both ends of its range on loading.
  EXPECT_EQ(error(given, "base: free\n  origin: {tip: [0, 0, 0.4]}", "randomize_keys:\n  robot.origin.tip[2]: {uniform: [0.8, 1]}\n"),
            "accepted");
}

}  // namespace
}  // namespace impactsim
