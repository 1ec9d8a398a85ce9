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

TEST(SceneLoader, DoublePendulumSceneMatchesItsDescription) {
  const Scene s = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/double_pendulum.yaml");
  EXPECT_EQ(s.name, "double_pendulum");
  ASSERT_EQ(s.system.model.bodies.size(), 2u);
  EXPECT_TRUE(s.system.model.planar);
  EXPECT_EQ(s.system.model.nq, 2);
  EXPECT_EQ(s.system.model.bodies[1].parent, 0);
  EXPECT_EQ(s.system.model.q_names, (std::vector<std::string>{"upper.theta", "lower.theta"}));
  EXPECT_EQ(s.system.model.v_names, (std::vector<std::string>{"upper.omega", "lower.omega"}));
  EXPECT_NEAR(s.initial.q[0], std::numbers::pi / 2, 1e-15);
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
