// A batch run's draws: coordinates, then scene parameters (randomize_keys), each run on its own
// scene; checked against a closed form (a box dropped flat rests at half its drawn height), the
// replay of a run, and a draw the scene rejects.
#include "app/run_draw.hpp"

#include <gtest/gtest.h>

#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

// A 0.4 x 0.3 x h m box released flat at z = 0.2 m above the ground: it lands on its face and
// rests with its centre at h / 2. h and mu are drawn per run; so is the initial x.
const char* kDrop =
    "name: drop\n"
    "world: {gravity: [0, 0, -9.81], shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]}\n"
    "bodies:\n"
    "  - {name: box, joint: {type: free}, density: 500, shapes: [{name: s, type: box, size: [0.4, 0.3, 0.2]}],\n"
    "     initial: {z: 0.2}}\n"
    "materials: {mu: 0.5}\n"
    "contacts:\n"
    "  - {name: corner, shape: s, with: ground}\n"
    "simulation: {t_end: 0.6, law: anitescu-potra}\n"
    "randomize:\n"
    "  box.x: {uniform: [-1, 1]}\n"
    "randomize_keys:\n"
    "  bodies[0].shapes[0].size[2]: {uniform: [0.1, 0.3]}\n"
    "  materials.mu: {uniform: [0.2, 0.8]}\n";

TEST(RunDraw, CoordinatesComeFirstThenParametersOnTheRunsOwnScene) {
  const Scene base = load_scene_text(kDrop, "drop.yaml");
  Rng a(11), b(11);
  const RunDraw x = draw_run(base, a), y = draw_run(base, b);
  ASSERT_TRUE(x.error.empty()) << x.error;
  ASSERT_EQ(x.coordinates.size(), 1u);
  ASSERT_EQ(x.parameters.size(), 2u);
  EXPECT_EQ(x.coordinates, y.coordinates);  // from the seed alone
  EXPECT_EQ(x.parameters, y.parameters);
  // The coordinate draw is the first, as without parameters (old batches replay unchanged).
  Rng c(11);
  std::vector<double> coordinates;
  draw_initial_state(base.initial, base.randomize, c, coordinates);
  EXPECT_EQ(coordinates, x.coordinates);
  ASSERT_TRUE(x.scene.has_value());
  EXPECT_EQ(x.scene->system.contacts.contacts()[0].mu, x.parameters[1]);
  EXPECT_EQ(x.initial.q[0], x.coordinates[0]);  // the drawn x on the run's scene
  EXPECT_EQ(x.initial.q[2], 0.2);
  EXPECT_EQ(draw_columns(base), (std::vector<std::string>{"init.box.x", "param.bodies[0].shapes[0].size[2]", "param.materials.mu"}));
  // Without randomize_keys nothing is re-read.
  const Scene plain = load_scene(scene("rocking_block_random_tilt.yaml"));
  Rng d(1);
  EXPECT_FALSE(draw_run(plain, d).scene.has_value());
}

TEST(RunDraw, ABatchOfDrawnHeightsRestsAtHalfEachHeightAndReplays) {
  const fs::path dir = fresh_dir("drawn_heights");
  std::ofstream(dir / "drop.yaml") << kDrop;
  const Result r = impactsim("batch " + (dir / "drop.yaml").string() + " --runs 12 --threads 2 -q -o " + (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rows = csv_rows(read_all(dir / "out" / "runs.csv"));
  ASSERT_EQ(rows.size(), 12u);
  for (const auto& row : rows) {
    ASSERT_EQ(row.at("status"), "ok") << row.at("message");
    const double h = std::stod(row.at("param.bodies[0].shapes[0].size[2]"));
    EXPECT_GE(h, 0.1);
    EXPECT_LE(h, 0.3);
    EXPECT_NEAR(std::stod(row.at("final.box.z")), h / 2, 1e-6) << "h = " << h;
    EXPECT_NEAR(std::stod(row.at("final.box.x")), std::stod(row.at("init.box.x")), 1e-9);  // dropped straight
  }
  // run --run I replays run I on its drawn scene: the same final state as its row.
  const Result replay = impactsim("run " + (dir / "drop.yaml").string() + " --run 7 -o " + (dir / "replay").string());
  ASSERT_EQ(replay.code, 0) << replay.err;
  EXPECT_NE(replay.err.find("drawn bodies[0].shapes[0].size[2] = "), std::string::npos) << replay.err;
  const std::vector<std::string> trajectory = split_lines(read_all(dir / "replay" / "trajectory.csv"));
  const std::vector<std::string> header = split(trajectory.front()), last = split(trajectory.back());
  const size_t z = std::find(header.begin(), header.end(), "box.z") - header.begin();
  ASSERT_LT(z, header.size());
  EXPECT_EQ(last[z], rows[7].at("final.box.z"));
}

TEST(RunDraw, ADrawTheSceneRejectsFailsItsRunAlone) {
  const fs::path dir = fresh_dir("drawn_mass");
  std::string text = kDrop;
  text.replace(text.find("  bodies[0].shapes[0].size[2]: {uniform: [0.1, 0.3]}\n"), 52, "  bodies[0].density: {normal: [500, 400]}\n");
  std::ofstream(dir / "drop.yaml") << text;
  const Result r = impactsim("batch " + (dir / "drop.yaml").string() + " --runs 40 -q -o " + (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.err;
  long invalid = 0, ok = 0;
  for (const auto& row : csv_rows(read_all(dir / "out" / "runs.csv"))) {
    const double density = std::stod(row.at("param.bodies[0].density"));
    if (row.at("reason") == "invalid_draw") {
      ++invalid;
      EXPECT_LE(density, 0.0);
      EXPECT_NE(row.at("message").find("randomize_keys.bodies[0].density: with bodies[0].density = "), std::string::npos);
    } else {
      ++ok;
      EXPECT_GT(density, 0.0);
    }
  }
  EXPECT_GT(invalid, 0);  // P(density <= 0) = P(z < -1.25) = 0.106
  EXPECT_GT(ok, 20);
}

}  // namespace
}  // namespace impactsim
