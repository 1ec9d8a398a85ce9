#pragma once
// URDF robots written to a fresh directory and loaded through a scene, for the tests of
// scenes/scene_urdf.hpp and scenes/scene_robot.hpp; and whether two scenes' models are the same
// to the bit.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "scenes/scene.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim::testing {

namespace fs = std::filesystem;

// The models of two scenes are the same to the bit: bodies, joints, masses, inertias, coordinates,
// shapes and the initial state.
inline void expect_same_model(const Scene& a, const Scene& b) {
  const Model& ma = a.system.model;
  const Model& mb = b.system.model;
  ASSERT_EQ(ma.bodies.size(), mb.bodies.size());
  for (size_t i = 0; i < ma.bodies.size(); ++i) {
    SCOPED_TRACE(ma.bodies[i].name);
    const Body& x = ma.bodies[i];
    const Body& y = mb.bodies[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.parent, y.parent);
    EXPECT_EQ(x.joint.type, y.joint.type);
    EXPECT_EQ(x.joint.origin, y.joint.origin);
    EXPECT_EQ(x.joint.rotation, y.joint.rotation);
    EXPECT_EQ(x.joint.axis, y.joint.axis);
    EXPECT_EQ(x.mass, y.mass);
    EXPECT_EQ(x.com, y.com);
    EXPECT_EQ(x.inertia, y.inertia);
  }
  EXPECT_EQ(ma.q_names, mb.q_names);
  EXPECT_EQ(ma.v_names, mb.v_names);
  EXPECT_EQ(ma.planar, mb.planar);
  EXPECT_EQ(a.initial.q, b.initial.q);
  EXPECT_EQ(a.initial.v, b.initial.v);
  const auto& ga = a.system.contacts.geometries();
  const auto& gb = b.system.contacts.geometries();
  ASSERT_EQ(ga.size(), gb.size());
  for (size_t i = 0; i < ga.size(); ++i) {
    SCOPED_TRACE(ga[i].name);
    EXPECT_EQ(ga[i].name, gb[i].name);
    EXPECT_EQ(ga[i].body, gb[i].body);
    EXPECT_EQ(ga[i].shape.type, gb[i].shape.type);
    EXPECT_EQ(ga[i].shape.size, gb[i].shape.size);
    EXPECT_EQ(ga[i].shape.radius, gb[i].shape.radius);
    EXPECT_EQ(ga[i].shape.position, gb[i].shape.position);
    EXPECT_EQ(ga[i].shape.rotation, gb[i].shape.rotation);
  }
  const auto& ca = a.system.contacts.contacts();
  const auto& cb = b.system.contacts.contacts();
  ASSERT_EQ(ca.size(), cb.size());
  for (size_t i = 0; i < ca.size(); ++i) EXPECT_EQ(ca[i].name, cb[i].name);
}

// A robot in a fresh directory: `urdf` written to robot.urdf, loaded through a scene whose robot
// section has `robot_keys` besides `urdf`.
class SceneUrdfFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("impactsim_scene_urdf_" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "meshes");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  Scene load(const std::string& urdf, const std::string& robot_keys = "base: free", const std::string& more = "") {
    write("robot.urdf", urdf);
    write("scene.yaml", "robot:\n  urdf: robot.urdf\n  " + robot_keys + "\n" + more + "simulation: {t_end: 1}\n");
    return load_scene((dir_ / "scene.yaml").string());
  }
  // "file:line key: message" of the error, with the directory left out.
  std::string error(const std::string& urdf, const std::string& robot_keys = "base: free", const std::string& more = "") {
    try {
      load(urdf, robot_keys, more);
    } catch (const SceneError& e) {
      return fs::path(e.file()).filename().string() + ":" + std::to_string(e.line()) + " " + e.key() + ": " + e.message();
    }
    return "accepted";
  }
  fs::path dir_;
};

inline std::string robot(const std::string& body) { return "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n" + body + "</robot>\n"; }

inline const std::string kBlock = R"(  <link name="block">
    <inertial><mass value="2"/><inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="2.5"/></inertial>
    <collision><geometry><box size="0.1 0.2 0.3"/></geometry></collision>
  </link>
)";

}  // namespace impactsim::testing
