// Randomized initial coordinates: the scene's section, and draws that come from the run's own
// generator alone, in range, replacing only the listed coordinates.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "scenes/randomize.hpp"
#include "scenes/scene.hpp"

namespace impactsim {
namespace {

TEST(Randomize, RandomizeDrawsReplaceInitialValues) {
  const Scene s = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block_random_tilt.yaml");
  ASSERT_EQ(s.randomize.size(), 1u);
  const RandomCoordinate& r = s.randomize[0];
  EXPECT_EQ(r.name, "block.theta");
  EXPECT_FALSE(r.velocity);
  EXPECT_EQ(r.index, 2);
  EXPECT_NEAR(r.a, -0.5 * std::numbers::pi / 180, 1e-15);
  EXPECT_NEAR(r.b, 0.5 * std::numbers::pi / 180, 1e-15);
  Rng a(3), b(3);
  std::vector<double> da, db;
  const State x = draw_initial_state(s.initial, s.randomize, a, da);
  const State y = draw_initial_state(s.initial, s.randomize, b, db);
  EXPECT_EQ(x.q, y.q);  // from the seed alone
  ASSERT_EQ(da.size(), 1u);
  EXPECT_EQ(x.q[2], da[0]);
  EXPECT_LE(std::abs(da[0]), r.b);
  EXPECT_EQ(x.q[1], s.initial.q[1]);  // the rest stays
}

TEST(Randomize, UniformStaysInItsRangeAndNormalHasItsMoments) {
  State initial{Eigen::Vector2d(1, 2), Eigen::Vector2d(3, 4)};
  const std::vector<RandomCoordinate> r{{"b.x", false, 0, RandomCoordinate::Law::uniform, -0.5, 0.25},
                                        {"b.vy", true, 1, RandomCoordinate::Law::normal, 10.0, 2.0}};
  double sum = 0, sum2 = 0;
  const int n = 20000;
  for (int k = 0; k < n; ++k) {
    Rng rng(k);
    std::vector<double> drawn;
    const State s = draw_initial_state(initial, r, rng, drawn);
    ASSERT_EQ(drawn.size(), 2u);
    EXPECT_GE(s.q[0], -0.5);
    EXPECT_LE(s.q[0], 0.25);
    EXPECT_EQ(s.q[0], drawn[0]);
    EXPECT_EQ(s.v[1], drawn[1]);
    EXPECT_EQ(s.q[1], 2.0);  // not listed: kept
    EXPECT_EQ(s.v[0], 3.0);
    sum += drawn[1];
    sum2 += drawn[1] * drawn[1];
  }
  const double mean = sum / n, sd = std::sqrt(sum2 / n - mean * mean);
  EXPECT_NEAR(mean, 10.0, 5 * 2.0 / std::sqrt(n));
  EXPECT_NEAR(sd, 2.0, 0.05);
}

}  // namespace
}  // namespace impactsim
