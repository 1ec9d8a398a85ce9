// The sections a batch reads: randomized coordinates (angles in degrees become radians), drawn
// scene keys, and outcome columns of each kind, with names that cannot clash with runs.csv's own.
#include <gtest/gtest.h>

#include <numbers>

#include "scenes/scene.hpp"
#include "scenes/scene_batch_sections.hpp"

namespace impactsim {
namespace {

const std::string kBlock = R"(
bodies:
  - {name: block, joint: {type: planar}, mass: 1, inertia: [0.1, 0.1, 0.1], initial: {y: 1}}
world: {shapes: [{name: ground, type: halfspace, normal: [0, 1, 0]}]}
contacts:
  - {name: A, body: block, point: [-0.5, -0.5, 0], with: ground}
  - {name: B, body: block, point: [0.5, -0.5, 0], with: ground}
simulation: {t_end: 1}
)";

// The error `extra` gives appended to the block scene ("" if it loads).
std::string section_error(const std::string& extra) {
  try {
    load_scene_text(kBlock + extra, "b.yaml");
  } catch (const SceneError& e) {
    return e.key() + ": " + e.message();
  }
  return "";
}

TEST(SceneBatchSections, RandomizedCoordinatesAreReadInRadians) {
  const Scene s = load_scene_text(kBlock + "randomize:\n  block.theta_deg: {uniform: [-90, 90]}\n  block.vx: {normal: [0, 0.5]}\n",
                                  "b.yaml");
  ASSERT_EQ(s.randomize.size(), 2u);
  EXPECT_EQ(s.randomize[0].name, "block.theta");
  EXPECT_FALSE(s.randomize[0].velocity);
  EXPECT_DOUBLE_EQ(s.randomize[0].a, -std::numbers::pi / 2);
  EXPECT_DOUBLE_EQ(s.randomize[0].b, std::numbers::pi / 2);
  EXPECT_TRUE(s.randomize[1].velocity);
  EXPECT_EQ(s.randomize[1].law, RandomLaw::normal);
  EXPECT_NE(section_error("randomize:\n  block.spin: {uniform: [0, 1]}\n").find("randomize"), std::string::npos);
}

TEST(SceneBatchSections, OutcomesOfEachKindAreColumns) {
  const Scene s = load_scene_text(kBlock + R"(outcomes:
  - {name: tilt_deg, final: block.theta_deg}
  - {name: a_closed, closed: A}
  - {name: b_impacts, impacts: B}
  - {name: b_lifts, lifts: B}
  - {name: a_first, first_lift: A}
)", "b.yaml");
  ASSERT_EQ(s.outcomes.size(), 5u);
  EXPECT_EQ(s.outcomes[0].kind, OutcomeDef::Kind::final_value);
  EXPECT_DOUBLE_EQ(s.outcomes[0].scale, 180 / std::numbers::pi);
  EXPECT_FALSE(s.outcomes[0].whole());
  EXPECT_EQ(s.outcomes[1].kind, OutcomeDef::Kind::closed);
  EXPECT_EQ(s.outcomes[2].index, 1);  // contact B
  EXPECT_EQ(s.outcomes[3].kind, OutcomeDef::Kind::lifts);
  EXPECT_TRUE(s.outcomes[4].whole());
}

TEST(SceneBatchSections, AnOutcomeCannotTakeARunsCsvColumnsName) {
  EXPECT_NE(section_error("outcomes:\n  - {name: status, closed: A}\n").find("outcomes[0].name"), std::string::npos);
  EXPECT_NE(section_error("outcomes:\n  - {name: A.closed, closed: A}\n").find("outcomes[0].name"), std::string::npos);
  EXPECT_NE(section_error("outcomes:\n  - {name: x, closed: C}\n").find("unknown contact 'C'"), std::string::npos);
  EXPECT_EQ(section_error("outcomes:\n  - {name: x, closed: A}\n"), "");
}

}  // namespace
}  // namespace impactsim
