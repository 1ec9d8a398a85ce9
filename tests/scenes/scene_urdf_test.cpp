// URDF robots in scenes: the shipped URDF bipeds give the models of their YAML twins exactly; joint
// and inertial frames, collision shapes and meshes map as scenes/scene_urdf.hpp says; every way a
// URDF can be wrong is an error naming the URDF's file, line and element.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numbers>

#include "collision/mesh.hpp"
#include "scenes/scene.hpp"
#include "scenes/scene_overrides.hpp"
#include "scenes/sha256.hpp"
#include "scenes/yaml_field.hpp"
#include "tests/scenes/urdf_file.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

const std::string kScenes = IMPACTSIM_SOURCE_DIR "/scenes/";

TEST(SceneUrdf, PlanarCompassGaitIsItsYamlTwin) {
  const Scene yaml = load_scene(kScenes + "compass_gait.yaml");
  const Scene urdf = load_scene(kScenes + "compass_gait_urdf.yaml");
  expect_same_model(yaml, urdf);
  EXPECT_TRUE(urdf.system.model.planar);
  EXPECT_EQ(urdf.robot.links, 4);  // hip_x, hip, leading, trailing; `world` is the world
  std::ifstream in(urdf.robot.urdf);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(urdf.robot.sha256, sha256_hex(text));
  EXPECT_TRUE(yaml.robot.urdf.empty());
  EXPECT_EQ(scene_content_sha256(yaml), yaml.text_sha256);
  EXPECT_NE(scene_content_sha256(urdf), urdf.text_sha256);
}

TEST(SceneUrdf, ThreeDimensionalCompassGaitIsItsYamlTwin) {
  const Scene yaml = load_scene(kScenes + "compass_gait_3d.yaml");
  const Scene urdf = load_scene(kScenes + "compass_gait_3d_urdf.yaml");
  expect_same_model(yaml, urdf);
  EXPECT_FALSE(urdf.system.model.planar);
  EXPECT_EQ(urdf.system.model.bodies[0].joint.type, JointType::free);  // robot.base: free
  EXPECT_EQ(urdf.system.model.nq, 9);
  EXPECT_EQ(urdf.system.contacts.contacts().size(), 10u);  // two feet, the pelvis box's eight corners
}

TEST_F(SceneUrdfFile, InertialAndJointFramesMapIntoTheBodyFrame) {
  const Scene s = load(robot(R"(  <link name="base">
    <inertial><origin xyz="0.1 0 0"/><mass value="3"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link>
  <link name="arm">
    <inertial>
      <origin xyz="0 0.2 0" rpy="0 0 1.5707963267948966"/>
      <mass value="2"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="2.5"/>
    </inertial>
    <collision name="arm_rod">
      <origin xyz="0 0.5 0" rpy="1.5707963267948966 0 0"/>
      <geometry><cylinder radius="0.05" length="1"/></geometry>
    </collision>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.5" rpy="0 0.5 0"/>
    <axis xyz="0 0 2"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
)"));
  const Model& m = s.system.model;
  ASSERT_EQ(m.bodies.size(), 2u);
  EXPECT_EQ(m.bodies[0].joint.type, JointType::free);
  EXPECT_EQ(m.bodies[0].com, Vec3(0.1, 0, 0));
  const Body& arm = m.bodies[1];
  EXPECT_EQ(arm.parent, 0);
  EXPECT_EQ(arm.joint.type, JointType::revolute);
  EXPECT_EQ(arm.joint.axis, Vec3::UnitZ());  // normalized
  EXPECT_EQ(arm.joint.origin, Vec3(0, 0, 0.5));
  EXPECT_TRUE(arm.joint.rotation.isApprox(Eigen::AngleAxisd(0.5, Vec3::UnitY()).toRotationMatrix(), 1e-15));
  EXPECT_EQ(arm.com, Vec3(0, 0.2, 0));
  // The inertial frame is turned 90 degrees about z: its x moment lies along the link's y.
  EXPECT_TRUE(arm.inertia.isApprox(Vec3(2, 1, 2.5).asDiagonal().toDenseMatrix(), 1e-14)) << arm.inertia;
  const auto& g = s.system.contacts.geometries();
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].name, "arm_rod");
  EXPECT_EQ(g[0].body, 1);
  EXPECT_EQ(g[0].shape.type, ShapeType::cylinder);
  EXPECT_EQ(g[0].shape.length, 1.0);
  EXPECT_TRUE((g[0].shape.rotation * Vec3::UnitZ()).isApprox(-Vec3::UnitY(), 1e-15));  // roll 90 degrees: its z axis along -y
  EXPECT_EQ(s.system.model.q_names[7], "arm.theta");
}

// <dynamics damping> becomes the joint's damping; limits, joint friction and mimic joints are
// listed, by joint, as ignored (commands warn them); a negative damping is refused at its joint.
TEST_F(SceneUrdfFile, DampingIsReadAndWhatIsIgnoredIsListed) {
  const std::string arm = R"(  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link>
  <link name="hand">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link>
)";
  const Scene s = load(robot(kBlock + arm + R"(  <joint name="shoulder" type="revolute">
    <parent link="block"/><child link="arm"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
    <dynamics damping="0.3" friction="0.2"/>
  </joint>
  <joint name="wrist" type="continuous">
    <parent link="arm"/><child link="hand"/>
    <dynamics damping="0.1"/>
    <mimic joint="shoulder"/>
  </joint>
)"));
  const Model& m = s.system.model;
  ASSERT_EQ(m.bodies.size(), 3u);
  EXPECT_EQ(m.bodies[0].joint.damping, 0.0);  // the free base
  EXPECT_EQ(m.bodies[1].joint.damping, 0.3);
  EXPECT_EQ(m.bodies[2].joint.damping, 0.1);
  const std::string urdf = (dir_ / "robot.urdf").string();
  EXPECT_EQ(s.robot.ignored,
            (std::vector<std::string>{
                urdf + ": joints shoulder: <limit> lower/upper ignored (impactsim models no joint limits: the joints move past them)",
                urdf + ": joints shoulder: <dynamics friction> ignored (only <dynamics damping> is modelled)",
                urdf + ": joints wrist: <mimic> ignored (the joints move independently)"}));
  EXPECT_TRUE(load(robot(kBlock)).robot.ignored.empty());
  // robot.damping replaces a joint's damping by the link it moves (what --set and sweeps reach).
  const std::string two_joints = robot(kBlock + arm + R"(  <joint name="shoulder" type="revolute">
    <parent link="block"/><child link="arm"/><limit lower="0" upper="0" effort="1" velocity="1"/>
    <dynamics damping="0.3"/>
  </joint>
  <joint name="wrist" type="continuous"><parent link="arm"/><child link="hand"/></joint>
)");
  const Model damped = load(two_joints, "base: free\n  damping: {arm: 0, hand: 0.7}").system.model;
  EXPECT_EQ(damped.bodies[1].joint.damping, 0.0);
  EXPECT_EQ(damped.bodies[2].joint.damping, 0.7);
  EXPECT_EQ(error(two_joints, "base: free\n  damping: {block: 1}"),
            "scene.yaml:4 robot.damping.block: the joint that moves 'block' is free; damping applies to revolute and "
            "prismatic joints");
  EXPECT_EQ(error(two_joints, "base: free\n  damping: {leg: 1}"), "scene.yaml:4 robot.damping.leg: 'leg' is not a link of the robot");
  EXPECT_EQ(error(two_joints, "base: free\n  damping: {hand: -1}").substr(0, 36), "scene.yaml:4 robot.damping.hand: mus");
  EXPECT_EQ(error(robot(kBlock + arm.substr(0, arm.find("  <link name=\"hand\">")) + R"(  <joint name="elbow" type="continuous">
    <parent link="block"/><child link="arm"/>
    <dynamics damping="-1"/>
  </joint>
)")),
            "robot.urdf:10 joint 'elbow': <dynamics damping> must be a number >= 0");
}

// robot.mass replaces a link's mass and scales its inertia about the centre of mass by the same
// factor (what --set, sweeps and randomize_keys reach); a massless link cannot be scaled.
TEST_F(SceneUrdfFile, BodiesFollowTheFileParentsFirstAndTheSceneAddsItsOwn) {
  // The child is written before its parent: it still comes after it.
  const Scene s = load(robot(R"(  <link name="b"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="j" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit lower="0" upper="1" effort="1" velocity="1"/></joint>
  <link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
)"),
                       "base: fixed\n  initial: {b: {s: 0.25, sdot: -1}}",
                       "bodies:\n  - {name: extra, parent: b, joint: {type: revolute}, mass: 1, inertia: [1, 1, 1], initial: {omega: 2}}\n");
  const Model& m = s.system.model;
  ASSERT_EQ(m.bodies.size(), 3u);
  EXPECT_EQ(m.bodies[0].name, "a");
  EXPECT_EQ(m.bodies[0].joint.type, JointType::fixed);
  EXPECT_EQ(m.bodies[1].name, "b");
  EXPECT_EQ(m.bodies[2].name, "extra");
  EXPECT_EQ(m.bodies[2].parent, 1);
  EXPECT_EQ(s.initial.q, Eigen::Vector2d(0.25, 0));
  EXPECT_EQ(s.initial.v, Eigen::Vector2d(-1, 2));
}

TEST_F(SceneUrdfFile, AWorldRootIsTheWorldAndCarriesStaticShapes) {
  const Scene s = load(robot(R"(  <link name="world">
    <collision name="table"><origin xyz="0 0 -0.05"/><geometry><box size="2 2 0.1"/></geometry></collision>
  </link>
  <joint name="drop" type="floating"><parent link="world"/><child link="block"/><origin xyz="0 0 1"/></joint>
)" + kBlock),
                       "mesh_hull: false", "collide: all\n");
  const Model& m = s.system.model;
  ASSERT_EQ(m.bodies.size(), 1u);
  EXPECT_EQ(m.bodies[0].parent, -1);
  EXPECT_EQ(m.bodies[0].joint.type, JointType::free);
  EXPECT_EQ(m.bodies[0].joint.origin, Vec3(0, 0, 1));
  const auto& g = s.system.contacts.geometries();
  ASSERT_EQ(g.size(), 2u);
  int table = g[0].name == "table" ? 0 : 1;
  EXPECT_EQ(g[table].body, -1);
  EXPECT_EQ(g[1 - table].name, "block_0");
  // The block against the table (its corners, and the table's corners against it).
  EXPECT_GE(s.system.contacts.contacts().size(), 4u);
  for (const ContactDef& c : s.system.contacts.contacts()) EXPECT_NE(c.name.find("table"), std::string::npos) << c.name;
}

TEST_F(SceneUrdfFile, MeshesAreReadBesideTheUrdfAndScaled) {
  fs::copy_file(kScenes + "meshes/chamfered_box.obj", dir_ / "meshes" / "part.obj");
  const auto block = [&](const std::string& scale) {
    return robot(R"(  <link name="block">
    <inertial><mass value="2"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <collision><geometry><mesh filename="meshes/part.obj")" +
                 scale + R"(/></geometry></collision>
  </link>
)");
  };
  const Scene one = load(block(""));
  const Scene two = load(block(" scale=\"2 2 2\""));
  const auto& a = one.system.contacts.geometries()[0].shape;
  const auto& b = two.system.contacts.geometries()[0].shape;
  ASSERT_EQ(a.type, ShapeType::convex);
  EXPECT_NEAR(mesh_volume(*b.hull), 8 * mesh_volume(*a.hull), 1e-12 * mesh_volume(*b.hull));
  // The URDF's mesh is recorded with its hash, as a scene's own meshes are.
  ASSERT_EQ(one.meshes.size(), 1u);
  EXPECT_EQ(fs::path(one.meshes[0].path).filename(), "part.obj");
  std::ifstream in(dir_ / "meshes" / "part.obj", std::ios::binary);
  EXPECT_EQ(one.meshes[0].sha256, sha256_hex(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>())));
}

TEST_F(SceneUrdfFile, ProblemsInsideTheUrdfNameItsFileLineAndElement) {
  EXPECT_EQ(error(robot("  <link name=\"a\">\n  </lnk>\n")).substr(0, 18), "robot.urdf:4 xml: ");
  EXPECT_EQ(error("<?xml version=\"1.0\"?>\n<robt/>\n"), "robot.urdf:1 robot: a URDF file's root element is <robot>");
  // urdfdom's own message, at the joint it names.
  const std::string orphan = error(robot(kBlock + R"(  <joint name="j" type="revolute">
    <parent link="nowhere"/><child link="block"/><limit lower="0" upper="1" effort="1" velocity="1"/>
  </joint>
)"));
  EXPECT_EQ(orphan.rfind("robot.urdf:7 urdf: ", 0), 0u) << orphan;  // the joint's line
  EXPECT_NE(orphan.find("nowhere"), std::string::npos) << orphan;
  EXPECT_EQ(error(robot(R"(  <link name="a-b"/>
)")),
            "robot.urdf:3 link 'a-b': link names become body names: letters, digits and '_', not starting with a digit, "
            "at most 100 characters, and only the root may be 'world'");
  EXPECT_EQ(error(robot(kBlock + R"(  <link name="c"/>
  <joint name="slide" type="planar"><parent link="block"/><child link="c"/><axis xyz="1 0 0"/></joint>
)")).rfind("robot.urdf:8 joint 'slide': a planar joint moves in its frame's x-y plane", 0),
            0u);
  EXPECT_EQ(error(robot(R"(  <link name="a">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="3"/></inertial>
  </link>
)")),
            "robot.urdf:3 link 'a': principal moments violate the triangle inequality I1 + I2 >= I3, so no rigid body has them");
  EXPECT_EQ(error(robot(R"(  <link name="a">
    <collision><geometry><mesh filename="package://r/meshes/a.stl"/></geometry></collision>
  </link>
)")),
            "robot.urdf:3 link 'a': mesh 'package://r/meshes/a.stl': package:// paths need ROS; give the file relative to "
            "the URDF");
  const std::string missing = error(robot(R"(  <link name="a">
    <collision><geometry><mesh filename="meshes/none.stl"/></geometry></collision>
  </link>
)"));
  EXPECT_EQ(missing.substr(0, 36), "robot.urdf:3 link 'a': no such mesh ") << missing;
}

// Issue 62, item 7: a second joint onto a link (a closed loop) was dropped without a word, and a
// cycle was reported as "the robot has no links besides the world".
TEST_F(SceneUrdfFile, ClosedLoopsAndCyclesAreRefusedAtTheirJoint) {
  const std::string links = kBlock + "  <link name=\"a\"/>\n  <link name=\"b\"/>\n";
  const std::string fixed = "  <joint name=\"%s\" type=\"fixed\"><parent link=\"%s\"/><child link=\"%s\"/></joint>\n";
  auto joint = [&](const std::string& name, const std::string& parent, const std::string& child) {
    std::string text = fixed;
    for (const std::string& part : {name, parent, child}) text.replace(text.find("%s"), 2, part);
    return text;
  };
  const std::string loop = error(robot(links + joint("ja", "block", "a") + joint("jb", "block", "b") + joint("jc", "a", "b")));
  EXPECT_EQ(loop, "robot.urdf:11 joint 'jc': link 'b' is already the child of joint 'jb': a closed loop, which "
                  "impactsim's tree of bodies cannot take (leave one joint out)");
  const std::string cycle = error(robot(links + joint("ja", "a", "b") + joint("jb", "b", "a")));
  EXPECT_EQ(cycle, "robot.urdf:9 joint 'ja': the joints form a cycle (b -> a -> b): a robot's links must form a tree");
}

// Issue 62, item 3: 100,000 nested elements overflowed the XML parser's stack; the nesting is
// bounded before parsing.
TEST_F(SceneUrdfFile, NestingIsBoundedBeforeParsing) {
  std::string deep;
  for (int k = 0; k < 100000; ++k) deep += "<a>";
  const std::string message = error(robot(kBlock + deep + "\n"));
  EXPECT_EQ(message, "robot.urdf:7 xml: elements nest more than 100 deep: this is no URDF");
  // Comments, declarations and empty elements do not count; 99 levels inside <robot> are read.
  std::string fine;
  for (int k = 0; k < 98; ++k) fine += "<a>";
  fine += "<b/><!-- <c> -->";
  for (int k = 0; k < 98; ++k) fine += "</a>";
  EXPECT_EQ(error(robot(kBlock + fine + "\n")).find("nest"), std::string::npos);
}

TEST_F(SceneUrdfFile, NonConvexMeshesNeedMeshHull) {
  // An L-shaped prism: closed, outward, not convex.
  write("meshes/l.obj", R"(v 0 0 0
v 2 0 0
v 2 1 0
v 1 1 0
v 1 2 0
v 0 2 0
v 0 0 1
v 2 0 1
v 2 1 1
v 1 1 1
v 1 2 1
v 0 2 1
f 1 3 2
f 1 4 3
f 1 6 4
f 4 6 5
f 7 8 9
f 7 9 10
f 7 10 12
f 10 11 12
f 1 2 8
f 1 8 7
f 2 3 9
f 2 9 8
f 3 4 10
f 3 10 9
f 4 5 11
f 4 11 10
f 5 6 12
f 5 12 11
f 6 1 7
f 6 7 12
)");
  const std::string urdf = robot(R"(  <link name="ell">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <collision><geometry><mesh filename="meshes/l.obj"/></geometry></collision>
  </link>
)");
  const std::string e = error(urdf);
  EXPECT_EQ(e.rfind("robot.urdf:3 link 'ell': the mesh is not convex (", 0), 0u) << e;
  EXPECT_NE(e.find("set the scene's robot.mesh_hull: true"), std::string::npos) << e;
  const Scene s = load(urdf, "base: free\n  mesh_hull: true");
  EXPECT_NEAR(mesh_volume(*s.system.contacts.geometries()[0].shape.hull), 3.5, 1e-9);  // the hull of the L
}

TEST_F(SceneUrdfFile, SceneKeysAroundTheRobotAreLocated) {
  const std::string block = robot(kBlock);
  EXPECT_EQ(error(block, "base: hinge"), "scene.yaml:3 robot.base: expected fixed, free or planar, found 'hinge'");
  EXPECT_EQ(error(block, "base: free\n  initial: {arm: {x: 1}}"),
            "scene.yaml:4 robot.initial.arm: 'arm' is not a link of the robot (give a scene body's initial coordinates in its "
            "entry)");
  EXPECT_EQ(error(block, "base: free\n  colour: red").substr(0, 38), "scene.yaml:4 robot.colour: unknown key");
  write("scene.yaml", "robot: {urdf: gone.urdf}\nsimulation: {t_end: 1}\n");
  try {
    load_scene((dir_ / "scene.yaml").string());
    ADD_FAILURE() << "accepted";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.key(), "robot.urdf");
    EXPECT_EQ(e.line(), 1);
    EXPECT_NE(e.message().find("no such URDF file"), std::string::npos) << e.message();
  }
  EXPECT_EQ(error(robot("  <link name=\"world\"/>\n  <joint name=\"j\" type=\"floating\"><parent link=\"world\"/>"
                        "<child link=\"block\"/></joint>\n" + kBlock),
                  "base: free"),
            "scene.yaml:3 robot.base: the URDF's root link is 'world', whose joints attach the robot; base applies to other "
            "roots");
  // A fixed base and nothing else moving: no degrees of freedom.
  EXPECT_NE(error(block, "base: fixed").find("no degrees of freedom"), std::string::npos);
}

}  // namespace
}  // namespace impactsim
