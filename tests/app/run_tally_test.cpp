// RunTally and run summary.json: counts of events and impacts per contact, the rest time, the last
// state, closed contacts and the scene's outcome columns, on the rocking block (1 x 2 m, 1 kg).
#include "app/run_tally.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

Event event(EventKind kind, double t, std::vector<int> contacts = {}) {
  Event e;
  e.kind = kind;
  e.t = t;
  e.contacts = std::move(contacts);
  return e;
}

TEST(RunTally, CountsImpactsPerContactAndTheRestTime) {
  const Scene scene = load_scene(testing::scene("rocking_block.yaml"));
  RunTally tally(scene, scene.initial);
  EXPECT_EQ(tally.q(), scene.initial.q);  // a run that stops at once reports where it started
  tally.event(event(EventKind::impact, 0.045, {0, 1}));
  tally.event(event(EventKind::liftoff, 0.046, {1}));
  tally.event(event(EventKind::impact, 0.2, {1}));
  tally.event(event(EventKind::rest, 0.3));
  const Eigen::VectorXd q = Eigen::Vector3d(0.2, 1.0, 0.0), v = Eigen::Vector3d::Zero();
  tally.sample({1.0, q, v, 0.0, 0.0});
  EXPECT_EQ(tally.impacts(), 2);
  EXPECT_EQ(tally.events(), 4);
  EXPECT_EQ(tally.t_rest(), 0.3);
  EXPECT_EQ(tally.t_final(), 1.0);
  EXPECT_EQ(tally.kinetic_energy(), 0.0);
  EXPECT_EQ(tally.closed(), (std::vector<bool>{true, true}));  // flat on the ground at rest
  EXPECT_EQ(tally.outcome_values(tally.closed()), (std::vector<double>{0.0, 1.0, 2.0}));  // tilt, impacts of A, of B

  const std::string json = run_summary_json(scene, tally, "", "");
  for (const char* expected : {"\"status\": \"ok\"", "\"impacts\": 2", "\"events\": 4", "\"t_rest\": 0.3",
                               "\"final_kinetic_energy\": 0.0", "\"impacts_B\": 2", "\"A\": 1"})
    EXPECT_NE(json.find(expected), std::string::npos) << expected << "\n" << json;
  EXPECT_EQ(json.find("reason"), std::string::npos) << json;
}

TEST(RunTally, OutcomesAreMeasuredAtTheLastStateAndFailuresSayWhy) {
  const Scene scene = load_scene(testing::scene("rocking_block.yaml"));
  RunTally tally(scene, scene.initial);
  // Tilted by 0.1 rad in the air, turning at 2 rad/s: no contact closed; KE = 1/2 (5/12) 2^2.
  const Eigen::VectorXd q = Eigen::Vector3d(0.0, 1.5, 0.1), v = Eigen::Vector3d(0.0, 0.0, 2.0);
  tally.sample({0.5, q, v, 0.0, 0.0});
  EXPECT_EQ(tally.closed(), (std::vector<bool>{false, false}));
  EXPECT_NEAR(tally.outcome_values(tally.closed())[0], 0.1 * 180 / std::numbers::pi, 1e-12);
  EXPECT_NEAR(tally.kinetic_energy(), 0.5 * 5.0 / 12 * 4, 1e-12);
  const std::string json = run_summary_json(scene, tally, "step_limit", "more than 50 steps");
  for (const char* expected : {"\"status\": \"failed\"", "\"reason\": \"step_limit\"",
                               "\"message\": \"more than 50 steps\"", "\"t_rest\": null", "\"t_final\": 0.5"})
    EXPECT_NE(json.find(expected), std::string::npos) << expected << "\n" << json;
}

}  // namespace
}  // namespace impactsim
