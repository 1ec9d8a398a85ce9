// The simulation section: its defaults, each law's and integrator's section, and what a run
// could not survive, refused at the key to change.
#include <gtest/gtest.h>

#include "scenes/scene.hpp"
#include "scenes/scene_simulation.hpp"

namespace impactsim {
namespace {

TEST(SceneSimulation, DefaultsApply) {
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
  EXPECT_EQ(s.system.contact.slow_slip_speed, 1e-4);
  EXPECT_TRUE(s.system.contact.sleep);
  EXPECT_EQ(s.system.simulation.island_clocks, IslandClocks::automatic);
  EXPECT_EQ(s.initial.q, Eigen::Vector3d::Zero());
}

const char* const kPuck = R"(
bodies:
  - {name: puck, joint: {type: planar}, mass: 2, inertia: [0.1, 0.1, 0.2]}
)";

TEST(SceneSimulation, LawsIntegratorsAndTheirSectionsAreRead) {
  const Scene s = load_scene_text(std::string(kPuck) + R"(
simulation:
  t_end: 2
  seed: 7
  law: propagative
  propagative: {R: 0.5}
  integrator: time-stepping
  time_stepping: {scheme: trapezoidal, h: 0.002}
  contact: {v_zeno: 0.01, max_events: 50, slow_slip_speed: 0, sleep: false}
output: {precision: 9}
)", "puck.yaml");
  EXPECT_EQ(s.law, "propagative");
  EXPECT_EQ(s.seed, 7u);
  EXPECT_EQ(s.laws.of("propagative").number("R"), 0.5);
  EXPECT_EQ(s.system.integrator, Integrator::time_stepping);
  EXPECT_EQ(s.system.time_stepping.alpha, 0.5);
  EXPECT_EQ(s.system.time_stepping.h, 0.002);
  EXPECT_EQ(s.system.contact.v_zeno, 0.01);
  EXPECT_EQ(s.system.contact.max_events, 50);
  EXPECT_EQ(s.system.contact.slow_slip_speed, 0.0);
  EXPECT_FALSE(s.system.contact.sleep);
  EXPECT_EQ(s.output.precision, 9);
}

TEST(SceneSimulation, IslandClocksAreOnOffOrAutomatic) {
  const auto clocks = [](const std::string& value) {
    return load_scene_text(std::string(kPuck) + "simulation: {t_end: 1, island_clocks: " + value + "}\n", "clocks.yaml")
        .system.simulation.island_clocks;
  };
  EXPECT_EQ(clocks("true"), IslandClocks::on);
  EXPECT_EQ(clocks("false"), IslandClocks::off);
  EXPECT_EQ(clocks("auto"), IslandClocks::automatic);
  try {
    clocks("sometimes");
    FAIL() << "not a bool";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("island_clocks"), std::string::npos) << e.what();
  }
}

TEST(SceneSimulation, AnUnknownLawListsTheKnownOnes) {
  try {
    load_scene_text(std::string(kPuck) + "simulation: {t_end: 1, law: newton}\n", "puck.yaml");
    FAIL() << "an unknown law was accepted";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.key(), "simulation.law");
    EXPECT_NE(e.message().find("known: anitescu-potra, routh, sequential, propagative"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace impactsim
