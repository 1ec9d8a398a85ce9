// Randomized initial coordinates: the scene's section, and draws that come from the run's own
// generator alone, in range, replacing only the listed coordinates.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "scenes/randomize.hpp"
#include "scenes/scene.hpp"
#include "scenes/yaml_field.hpp"

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

// A planar 1 x 2 m block with one corner contact; `keys` is the randomize_keys section.
std::string block_scene(const std::string& keys) {
  return "name: k\n"
         "world: {gravity: [0, -9.81, 0], planar: true, shapes: [{name: ground, type: halfspace, normal: [0, 1, 0]}]}\n"
         "bodies:\n"
         "  - {name: block, joint: {type: planar}, mass: 1.0, shapes: [{name: s, type: box, size: [1, 2, 1]}],\n"
         "     initial: {y: 1.01}}\n"
         "materials: {mu: 0.5}\n"
         "contacts:\n"
         "  - {name: A, body: block, point: [-0.5, -1, 0], with: ground}\n"
         "simulation: {t_end: 0.2}\n"
         "randomize_keys:\n" +
         keys;
}

std::string randomize_error(const std::string& text) {
  try {
    load_scene_text(text, "k.yaml");
  } catch (const SceneError& e) {
    return e.what();
  }
  return "no error";
}

TEST(RandomizeKeys, ParametersAreReadAndDrawnInOrder) {
  const Scene s = load_scene_text(block_scene("  materials.mu: {uniform: [0.1, 0.9]}\n  bodies[0].mass: {normal: [2, 0.1]}\n"),
                                  "k.yaml");
  ASSERT_EQ(s.randomize_keys.size(), 2u);
  EXPECT_EQ(s.randomize_keys[0].key, "materials.mu");
  EXPECT_EQ(s.randomize_keys[1].law, RandomParameter::Law::normal);
  EXPECT_EQ(s.randomize_keys[1].line, 12);  // where the scene lists it
  Rng a(5), b(5);
  const std::vector<double> x = draw_parameters(s.randomize_keys, a), y = draw_parameters(s.randomize_keys, b);
  EXPECT_EQ(x, y);
  EXPECT_GE(x[0], 0.1);
  EXPECT_LE(x[0], 0.9);
  // The run's scene: the keys set to the drawn values, exactly (shortest round-trip text).
  const Scene drawn = scene_with_parameters(s, x);
  EXPECT_EQ(drawn.system.contacts.contacts()[0].mu, x[0]);
  EXPECT_EQ(drawn.system.model.bodies[0].mass, x[1]);
  EXPECT_EQ(s.system.model.bodies[0].mass, 1.0);  // the base scene is untouched
  EXPECT_EQ(parameter_overrides(s.randomize_keys, {0.1, 2.5})[1].text(), "bodies[0].mass=2.5");
}

TEST(RandomizeKeys, KeysTheSceneRejectsAreLocatedErrors) {
  EXPECT_EQ(randomize_error(block_scene("  materials.mu: {uniform: [-0.1, 0.5]}\n")),
            "k.yaml:11:17: randomize_keys.materials.mu: with materials.mu = -0.1 (the range's lower end): materials.mu: "
            "must not be negative, found -0.1");
  EXPECT_EQ(randomize_error(block_scene("  bodies[3].mass: {uniform: [1, 2]}\n")),
            "k.yaml:11:19: randomize_keys.bodies[3].mass: with bodies[3].mass = 1 (the range's lower end): bodies[3]: the "
            "list has 1 entries");
  EXPECT_NE(randomize_error(block_scene("  materials.mu: {uniform: [0.5, 0.1]}\n")).find("lower end is above"), std::string::npos);
  EXPECT_NE(randomize_error(block_scene("  materials.mu: {normal: [0.5, -1]}\n")).find("standard deviation must not be negative"),
            std::string::npos);
  EXPECT_NE(randomize_error(block_scene("  materials.mu: {uniform: [0.1, 0.2], normal: [0.1, 1]}\n")).find("exactly one of"),
            std::string::npos);
  EXPECT_NE(randomize_error(block_scene("  randomize_keys.x: {uniform: [0, 1]}\n")).find("cannot be drawn themselves"),
            std::string::npos);
  EXPECT_NE(randomize_error(block_scene("  'a..b': {uniform: [0, 1]}\n")).find("is not a scene key"), std::string::npos);
}

TEST(RandomizeKeys, ADrawTheSceneRejectsNamesTheKeyAndValue) {
  const Scene s = load_scene_text(block_scene("  bodies[0].mass: {normal: [1, 0.5]}\n"), "k.yaml");
  try {
    scene_with_parameters(s, {-0.25});
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(std::string(e.what()), "k.yaml:11:19: randomize_keys.bodies[0].mass: with bodies[0].mass = -0.25 (drawn): "
                                     "bodies[0].mass: must not be negative, found -0.25");
  }
}

}  // namespace
}  // namespace impactsim
