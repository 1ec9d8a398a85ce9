// RunTally and run summary.json: counts of events and impacts per contact, the rest time, the last
// state, closed contacts and the scene's outcome columns, on the rocking block (1 x 2 m, 1 kg).
#include "app/run_tally.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>

#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

Event event(EventKind kind, double t, std::vector<int> contacts = {}, std::vector<double> normal_velocity_after = {}) {
  Event e;
  e.kind = kind;
  e.t = t;
  e.contacts = std::move(contacts);
  e.normal_velocity_after = std::move(normal_velocity_after);
  return e;
}

// The scene's outcomes (tilt; first_lift and lifts of A and B) and impacts of A and B added.
Scene rocking_block_counting_impacts() {
  Scene scene = load_scene(testing::scene("rocking_block.yaml"));
  for (int i : {0, 1})
    scene.outcomes.push_back({.name = i == 0 ? "impacts_A" : "impacts_B", .kind = OutcomeDef::Kind::impacts, .index = i});
  return scene;
}

// Corner A lifts at the first impact (the block rocks onto B), B's own impact at 0.2 s leaves it down,
// and at 0.25 s B lifts: A lifted once and first, B once but not first; each took part in 2 and 3 impacts.
TEST(RunTally, CountsImpactsAndLiftsPerContactAndTheRestTime) {
  const Scene scene = rocking_block_counting_impacts();
  RunTally tally(scene, scene.initial);
  EXPECT_EQ(tally.q(), scene.initial.q);  // a run that stops at once reports where it started
  tally.event(event(EventKind::impact, 0.045, {0, 1}, {0.093, 0.0}));
  tally.event(event(EventKind::liftoff, 0.046, {1}));
  tally.event(event(EventKind::impact, 0.2, {1}, {1e-7}));  // below the velocity tolerance: not lifting
  tally.event(event(EventKind::impact, 0.25, {0, 1}, {-1e-9, 0.05}));
  Event step = event(EventKind::step, 0.26, {0, 1});  // a time-step: counted apart, not an impact
  step.duration = 2.5e-5;
  tally.event(step);
  tally.event(event(EventKind::rest, 0.3));
  const Eigen::VectorXd q = Eigen::Vector3d(0.2, 1.0, 0.0), v = Eigen::Vector3d::Zero();
  tally.sample({1.0, q, v, 0.0, 0.0});
  EXPECT_EQ(tally.impacts(), 3);
  EXPECT_EQ(tally.events(), 6);
  EXPECT_EQ(tally.time_steps(), 1);
  EXPECT_EQ(tally.stepped_time(), 2.5e-5);
  EXPECT_EQ(tally.t_rest(), 0.3);
  EXPECT_EQ(tally.t_final(), 1.0);
  EXPECT_EQ(tally.kinetic_energy(), 0.0);
  EXPECT_EQ(tally.closed(), (std::vector<bool>{true, true}));  // flat on the ground at rest
  // tilt; first_lift A, B; lifts A, B; impacts A, B
  EXPECT_EQ(tally.outcome_values(tally.closed()), (std::vector<double>{0.0, 1.0, 0.0, 1.0, 1.0, 2.0, 3.0}));

  EXPECT_TRUE(std::isnan(tally.deepest_penetration()));  // not known until the run has ended
  RunStats stats;
  stats.min_phi = -3.5e-7;
  tally.finished(stats);
  EXPECT_EQ(tally.deepest_penetration(), 3.5e-7);
  const std::string json = run_summary_json(scene, tally, "", "");
  for (const char* expected : {"\"deepest_penetration\": 3.5e-07", "\"stepped_time\": 2.5e-05", "\"status\": \"ok\"", "\"impacts\": 3", "\"events\": 6", "\"time_steps\": 1", "\"dependent_closes\": 0", "\"t_rest\": 0.3",
                               "\"final_kinetic_energy\": 0.0", "\"first_lift_A\": 1", "\"lifts_B\": 1", "\"impacts_B\": 3", "\"A\": 1"})
    EXPECT_NE(json.find(expected), std::string::npos) << expected << "\n" << json;
  EXPECT_EQ(json.find("reason"), std::string::npos) << json;
  // Every contact in the scene's order, once each, 1 where closed.
  const nlohmann::ordered_json closed = nlohmann::ordered_json::parse(json)["closed"];
  ASSERT_EQ(closed.size(), 2u);
  EXPECT_EQ(closed.begin().key(), "A");
  EXPECT_EQ((++closed.begin()).key(), "B");
  EXPECT_EQ(closed["A"], 1);
  EXPECT_EQ(closed["B"], 1);
}

// A Zeno close that removed more than kDependentCloseRatio times what stopping each row alone would
// is counted, and the first one kept; an ordinary close (ratio 2.7, zeno_block's) and a plastic
// Zeno impact are not.
TEST(RunTally, CountsZenoClosesOverNearlyDependentContacts) {
  const Scene scene = load_scene(testing::scene("rocking_block.yaml"));
  RunTally tally(scene, scene.initial);
  Event ordinary = event(EventKind::zeno, 0.5, {0, 1});
  ordinary.law = "close";
  ordinary.kinetic_before = 2.7e-6;
  ordinary.rowwise_loss = 1e-6;
  tally.event(ordinary);
  Event dependent = ordinary;
  dependent.t = 0.7;
  dependent.kinetic_before = 0.1035;
  dependent.kinetic_after = 0.0859;
  dependent.rowwise_loss = 1.78e-7;
  tally.event(dependent);
  Event plastic = dependent;
  plastic.law = "plastic";
  tally.event(plastic);
  Event later = dependent;
  later.t = 0.9;
  tally.event(later);
  EXPECT_EQ(tally.dependent_closes(), 2);
  EXPECT_EQ(tally.first_dependent_close().t, 0.7);
  EXPECT_NE(run_summary_json(scene, tally, "", "").find("\"dependent_closes\": 2"), std::string::npos);
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
                               "\"message\": \"more than 50 steps\"", "\"t_rest\": null", "\"t_final\": 0.5",
                               "\"deepest_penetration\": null"})
    EXPECT_NE(json.find(expected), std::string::npos) << expected << "\n" << json;
}

}  // namespace
}  // namespace impactsim
