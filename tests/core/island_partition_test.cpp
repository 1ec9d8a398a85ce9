#include "core/island_partition.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "scenes/scene.hpp"
#include "tests/core/island_scenes.hpp"

namespace impactsim {
namespace {

using testing::island_body;
using testing::island_scene;

struct Split {
  Partition partition;
  IslandModel model;
};

Split split(const std::string& bodies, const std::vector<int>& previous = {}, double window = 2e-3) {
  const Scene scene = load_scene_text(island_scene(bodies, 1.0), "islands");
  const std::optional<IslandModel> im = island_model(scene.system);
  EXPECT_TRUE(im.has_value());
  Kinematics kin(scene.system.model);
  update_kinematics(scene.system.model, scene.initial.q, kin);
  update_velocities(scene.system.model, scene.initial.q, scene.initial.v, kin);
  return {partition_islands(scene.system, *im, kin, previous, window), *im};
}

TEST(IslandPartition, BodiesAtRestOnTheGroundNeverMeet) {
  const Split s = split(island_body("a", false, 0, 0, 0.05, 0, "[0, 0, 0]") + island_body("b", true, 0.3, 0, 0.05, 0, "[0, 0, 0]"));
  EXPECT_EQ(s.partition.group, (std::vector<int>{0, 1}));
  EXPECT_EQ(s.partition.horizon, std::numeric_limits<double>::infinity());
  EXPECT_DOUBLE_EQ(s.model.bodies[0].inscribed, 0.05);
  EXPECT_DOUBLE_EQ(s.model.bodies[1].inscribed, 0.05);
  EXPECT_DOUBLE_EQ(s.model.bodies[1].radius, std::sqrt(3.0) * 0.05);
}

// A sphere rolling at v towards another at rest: E = m v^2 / 2 and I = 2 m r^2 / 5, so its points
// move no faster than v sqrt(1 + 5/2); the gap 0.5 - 2 r less the 1e-5 m margin closes no sooner.
TEST(IslandPartition, TheHorizonIsTheGapOverTheSpeedBound) {
  const double v = 1.0;
  const Split s = split(island_body("a", false, 0, 0, 0.05, v, "[0, 0, 0]") + island_body("b", false, 0.5, 0, 0.05, 0, "[0, 0, 0]"));
  EXPECT_EQ(s.partition.group, (std::vector<int>{0, 1}));
  const double bound = 1.05 * v * std::sqrt(1 + 2.5);
  EXPECT_NEAR(s.partition.horizon, (0.5 - 0.1 - 1e-5) / bound, 1e-12);
}

TEST(IslandPartition, BodiesThatCanMeetWithinTheWindowShareAGroup) {
  const std::string close = island_body("a", false, 0, 0, 0.05, 1.0, "[0, 0, 0]") + island_body("b", false, 0.105, 0, 0.05, 0, "[0, 0, 0]") +
                            island_body("c", false, 1.0, 0, 0.05, 0, "[0, 0, 0]");
  // Gap 5 mm against a reach of 1.96 m/s over 2 ms: apart; over 4 ms (or with a shared past): together.
  EXPECT_EQ(split(close).partition.group, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(split(close, {}, 4e-3).partition.group, (std::vector<int>{0, 0, 2}));
  EXPECT_EQ(split(close, {0, 0, 2}).partition.group, (std::vector<int>{0, 0, 2}));
  // The third is reached by neither once they are one group: the horizon is its own gap.
  const Split joined = split(close, {0, 0, 2});
  EXPECT_GT(joined.partition.horizon, 2e-3);
}

TEST(IslandPartition, AFallingBodyBringsItsHeightIntoTheBound) {
  // At rest 0.2 m above its resting height: E = m g 0.2, so s = sqrt(2 g 0.2 (1 + 5/2)) 1.05.
  const Split s = split(island_body("a", false, 0, 0, 0.25, 0, "[0, 0, 0]") + island_body("b", false, 1.0, 0, 0.05, 0, "[0, 0, 0]"));
  const double bound = 1.05 * std::sqrt(2 * 9.81 * 0.2 * 3.5);
  EXPECT_NEAR(s.partition.horizon, (std::sqrt(1.0 + 0.2 * 0.2) - 0.1 - 1e-5) / bound, 1e-12);
}

// Two spheres in flight fall alike: only their relative speed (1 m/s, no spin) closes the gap,
// 0.5 - 2 r less the margin, while both are still 2.95 m above the ground.
TEST(IslandPartition, BodiesInFlightCloseTheirGapAtTheirRelativeSpeed) {
  const Split s = split(island_body("a", false, 0, 0, 3, 2.0, "[0, 0, 0]") + island_body("b", false, 0.5, 0, 3, 1.0, "[0, 0, 0]"));
  EXPECT_EQ(s.partition.group, (std::vector<int>{0, 1}));
  EXPECT_NEAR(s.partition.horizon, (0.5 - 0.1 - 1e-5) / 1.0, 1e-12);
}

// A sphere dropped from rest onto one resting on the ground: no sooner than a free fall over the
// gap, 0.45 - 2 r less the margin (the energy bound alone gives a fifth of that).
TEST(IslandPartition, ABodyInFlightFallsNoFasterThanGravity) {
  const Split s = split(island_body("a", false, 0, 0, 0.5, 0, "[0, 0, 0]") + island_body("b", false, 0, 0, 0.05, 0, "[0, 0, 0]"));
  EXPECT_EQ(s.partition.group, (std::vector<int>{0, 1}));
  EXPECT_NEAR(s.partition.horizon, std::sqrt(2 * (0.35 - 1e-5) / 9.81), 1e-12);
  // Flight ends at the ground: the same spheres side by side, 4 m apart at 1 m/s, still meet no
  // sooner than the energy bound allows once the flier lands (at sqrt(2 (0.45 - 1e-5) / g)).
  const Split apart = split(island_body("a", false, 0, 0, 0.5, 1.0, "[0, 0, 0]") + island_body("b", false, 4, 0, 0.05, 0, "[0, 0, 0]"));
  const double landing = 2 * (0.45 - 1e-5) / (1 + std::sqrt(1 + 2 * 9.81 * (0.45 - 1e-5)));
  const double by_energy = (std::hypot(4.0, 0.45) - 0.1 - 1e-5) / (1.05 * std::sqrt((1 + 2 * 9.81 * 0.45) * 3.5));
  EXPECT_NEAR(apart.partition.horizon, std::max(landing, by_energy), 1e-12);
}

TEST(IslandPartition, TheBoundNeedsFreeBodiesAboveAGround) {
  const std::string two = island_body("a", false, 0, 0, 0.05) + island_body("b", false, 0.5, 0, 0.05);
  EXPECT_TRUE(island_model(load_scene_text(island_scene(two, 1.0), "x").system).has_value());
  EXPECT_FALSE(island_model(load_scene_text(island_scene(island_body("a", false, 0, 0, 0.05), 1.0), "x").system));
  std::string walls = island_scene(two, 1.0);
  walls.replace(walls.find("normal: [0, 0, 1]"), 17, "normal: [0, 0, -1], offset: -10");
  EXPECT_FALSE(island_model(load_scene_text(walls, "x").system)) << "a ceiling, no ground";
}

}  // namespace
}  // namespace impactsim
