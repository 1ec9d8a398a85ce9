// impactsim run end to end: trajectory.csv and events.csv, messages and exit codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <tuple>

#include "app/commands.hpp"
#include "app/run_tally.hpp"
#include "scenes/scene.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

// A coin's Zeno close over its curved contact and a rim point beside it is counted in summary.json
// and warned about, naming it; the rocking block has none and no warning.
TEST(Run, ZenoClosesOverNearlyDependentContactsAreWarnedAbout) {
  const fs::path coin = fresh_dir("run_dependent_closes");
  const Result r = impactsim("run " + coin_with_a_dependent_close().string() + " -o " + coin.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("1 Zeno close(s) " + RunTally::dependent_close_meaning("summary.json")), std::string::npos) << all;
  EXPECT_NE(all.find(RunTally::kDependentCloseReadme), std::string::npos) << all;
  EXPECT_NE(all.find("the first at t = 0.600619219822 s on coin_shape@ground, coin_shape.rim-z2@ground"), std::string::npos)
      << all;
  EXPECT_EQ(nlohmann::json::parse(read_all(coin / "summary.json")).at("dependent_closes"), 1);
  const fs::path block = fresh_dir("run_no_dependent_closes");
  const Result b = impactsim("run " + scene("zeno_block.yaml") + " -o " + block.string());
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ((b.out + b.err).find("Zeno close(s)"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(read_all(block / "summary.json")).at("dependent_closes"), 0);
}

TEST(Run, RunWritesTheTrajectoryOfTheDefaultScene) {
  const fs::path dir = fresh_dir("run");
  const Result r = impactsim("run " + scene("double_pendulum.yaml") + " -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream csv(dir / "trajectory.csv");
  std::string header, line, last;
  std::getline(csv, header);
  EXPECT_EQ(header, "t,upper.theta,lower.theta,upper.omega,lower.omega,kinetic_energy,potential_energy");
  int rows = 0;
  double e0 = NAN, worst = 0;
  while (std::getline(csv, line)) {
    const auto cells = split(line);
    ASSERT_EQ(cells.size(), 7u) << line;
    const double e = std::stod(cells[5]) + std::stod(cells[6]);
    if (rows == 0) e0 = e;
    worst = std::max(worst, std::abs(e - e0));
    last = line;
    ++rows;
  }
  EXPECT_EQ(rows, 1001);
  EXPECT_EQ(split(last)[0], "10");
  // Energy is conserved: the scale is m g L = 9.81 J, the CSV carries 12 significant digits.
  EXPECT_LT(worst, 1e-7);
  EXPECT_NE(r.err.find("timing:"), std::string::npos) << r.err;
}

TEST(Run, RunWritesEventsOfTheRockingBlock) {
  const fs::path dir = fresh_dir("rocking");
  const Result r = impactsim("run " + scene("rocking_block.yaml") + " --law anitescu-potra -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream events(dir / "events.csv");
  std::string header, line;
  std::getline(events, header);
  EXPECT_EQ(header, "t,kind,contacts,law,kinetic_energy_before,kinetic_energy_after,impulse_n,ordering,impulse_t,duration");
  ASSERT_TRUE(std::getline(events, line));
  const auto cells = split(line);
  ASSERT_EQ(cells.size(), 10u);
  EXPECT_EQ(cells[7], "");  // no ordering for a simultaneous law
  EXPECT_EQ(cells[9], "0");  // an impact takes no time
  // impulse_t: one friction component per contact in a planar scene; dropped flat, the block needs none.
  const auto friction = split(cells[8], ';');
  ASSERT_EQ(friction.size(), 2u);
  for (const std::string& f : friction) EXPECT_NEAR(std::stod(f), 0.0, 1e-12);
  EXPECT_NEAR(std::stod(cells[0]), std::sqrt(2 * 0.01 / 9.81), 1e-10);
  EXPECT_EQ(cells[1], "impact");
  EXPECT_EQ(cells[2], "A;B");
  EXPECT_EQ(cells[3], "anitescu-potra");
  ASSERT_TRUE(std::getline(events, line));
  EXPECT_EQ(split(line)[1], "rest");  // both corners stick: at rest from the impact on
  EXPECT_FALSE(std::getline(events, line)) << "only the impact and rest: " << line;
  // The trajectory has the regular rows plus one just before and one just after the impact.
  const std::string csv = read_all(dir / "trajectory.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 201 + 2);
  EXPECT_NE(r.err.find("seed 0"), std::string::npos) << r.err;
}

TEST(Run, SequentialRunLogsItsOrdering) {
  const fs::path dir = fresh_dir("ordering");
  const Result r = impactsim("run " + scene("rocking_block.yaml") + " --law sequential -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream events(dir / "events.csv");
  std::string header, line;
  std::getline(events, header);
  ASSERT_TRUE(std::getline(events, line));
  const auto cells = split(line);
  ASSERT_EQ(cells.size(), 10u);
  EXPECT_EQ(cells[1], "impact");
  EXPECT_EQ(cells[7], "A;B");  // cyclic from the first contact
  EXPECT_EQ(split(cells[8], ';').size(), 2u);
}

TEST(Run, UnsolvableImpactExitsWithThreeAndKeepsTheRows) {
  const fs::path dir = fresh_dir("wedge");
  const Result r = impactsim("run " + std::string(IMPACTSIM_SOURCE_DIR) + "/tests/scenes/contact/jammed_wedge.yaml -o " +
                             dir.string());
  EXPECT_EQ(r.code, kExitSimulation);
  EXPECT_NE(r.err.find("ray termination"), std::string::npos) << r.err;
  const std::string csv = read_all(dir / "trajectory.csv");
  EXPECT_GT(std::count(csv.begin(), csv.end(), '\n'), 10);
}

// summary.json says how the run ended: the rocking block's one impact at t = sqrt(2 h / g) leaves
// both corners closed and the block at rest; its outcomes are those a batch's runs.csv would hold.
TEST(Run, RunSummaryReportsHowTheRunEnded) {
  const fs::path dir = fresh_dir("summary");
  const Result r = impactsim("run " + scene("rocking_block.yaml") + " --law anitescu-potra -q -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string summary = read_all(dir / "summary.json");
  for (const char* expected : {"\"status\": \"ok\"", "\"t_final\": 1.0", "\"impacts\": 1", "\"events\": 2",
                               "\"A\": 1", "\"B\": 1", "\"final_tilt_deg\": 0.0", "\"first_lift_A\": 0,", "\"lifts_B\": 0"})
    EXPECT_NE(summary.find(expected), std::string::npos) << expected << "\n" << summary;
  const size_t rest = summary.find("\"t_rest\": ");
  ASSERT_NE(rest, std::string::npos);
  EXPECT_NEAR(std::stod(summary.substr(rest + 10)), std::sqrt(2 * 0.01 / 9.81), 1e-10);
  // A run that stops says why, where it stopped.
  const fs::path failed = fresh_dir("summary_failed");
  const Result f = impactsim("run " + scene("rocking_block.yaml") + " --law routh --set simulation.routh.steps=1 -q -o " +
                             failed.string());
  ASSERT_EQ(f.code, kExitSimulation) << f.err;
  const std::string stopped = read_all(failed / "summary.json");
  EXPECT_NE(stopped.find("\"status\": \"failed\""), std::string::npos) << stopped;
  EXPECT_NE(stopped.find("\"reason\": \"impact_failed\""), std::string::npos) << stopped;
  EXPECT_NE(stopped.find("a contact still approaches after 1 steps"), std::string::npos) << stopped;
  EXPECT_NE(stopped.find("\"impacts\": 0"), std::string::npos) << stopped;
}

// The lift outcomes tell the orderings apart: resolved A first, the first impact leaves A lifting (the
// block rocks onto B, Halm and Posa §5.4.1), B first the mirror image; the block then rocks to rest,
// the corners lifting in turn (as often as each other, to one).
TEST(Run, LiftOutcomesSayWhichCornerTheBlockRockedOnto) {
  for (const auto& [start, a, b] : {std::tuple{"A", 1, 0}, std::tuple{"B", 0, 1}}) {
    const fs::path dir = fresh_dir(std::string("lift_") + start);
    const Result r = impactsim("run " + scene("rocking_block.yaml") + " --law sequential --set simulation.sequential.start=" +
                               start + " -q -o " + dir.string());
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json outcomes = nlohmann::json::parse(read_all(dir / "summary.json")).at("outcomes");
    EXPECT_EQ(outcomes.at("first_lift_A"), a) << start;
    EXPECT_EQ(outcomes.at("first_lift_B"), b) << start;
    EXPECT_GE(outcomes.at("lifts_A").get<int>(), 1) << start;
    EXPECT_LE(std::abs(outcomes.at("lifts_A").get<int>() - outcomes.at("lifts_B").get<int>()), 1) << start;
  }
}

TEST(Run, QuietRunPrintsNothing) {
  const fs::path dir = fresh_dir("quiet");
  const Result r = impactsim("run --quiet " + scene("double_pendulum.yaml") + " -o " + dir.string());
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "");
}

TEST(Run, SceneErrorExitsWithTwoAndWritesNothing) {
  const fs::path dir = fresh_dir("bad") / "never";
  const Result r = impactsim("run " + bad("negative_mass.yaml") + " -o " + dir.string());
  EXPECT_EQ(r.code, kExitScene);
  EXPECT_NE(r.err.find("negative_mass.yaml:4:11: bodies[0].mass: must not be negative"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir));
}

TEST(Run, FailedSimulationKeepsTheRowsWrittenSoFar) {
  const fs::path dir = fresh_dir("fail");
  std::ofstream(dir / "limited.yaml") << read_all(scene("double_pendulum.yaml")) << "  max_steps: 50\n";
  const Result r = impactsim("run " + (dir / "limited.yaml").string() + " -o " + (dir / "out").string());
  EXPECT_EQ(r.code, kExitSimulation) << r.err;
  EXPECT_NE(r.err.find("more than 50 steps"), std::string::npos) << r.err;
  const std::string csv = read_all(dir / "out" / "trajectory.csv");
  const long lines = std::count(csv.begin(), csv.end(), '\n');
  EXPECT_GT(lines, 2);
  EXPECT_LT(lines, 1002);
  EXPECT_NE(r.err.find(std::to_string(lines - 1) + " rows"), std::string::npos) << r.err;
}

TEST(Run, UnwritableOutputExitsWithFour) {
  const Result r = impactsim("run " + scene("double_pendulum.yaml") + " -o /proc/impactsim-cannot-write");
  EXPECT_EQ(r.code, kExitOutput) << r.err;
  EXPECT_NE(r.err.find("/proc/impactsim-cannot-write"), std::string::npos) << r.err;
}

// A run that could not reach t_end in the step budget stops as soon as its pace shows it, not
// after the hours the remaining steps would take. The sphere stack pushed sideways (it once
// stalled at t = 0.494 s; it now needs ~750 steps) with a budget of 104 steps, checked every 100:
// at t = 0.494 s the pace asks ~100 more steps, more than 20 x the 4 left.
TEST(Run, ARunThatCannotFinishStopsEarlyWithTheReason) {
  const fs::path dir = fresh_dir("sideways");
  std::string text = read_all(scene("sphere_stack.yaml"));
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"gravity: [0, 0, -9.81]", "gravity: [-1, 0, -9.81]"},
                                 {"  t_end: 1.0\n", "  t_end: 1.0\n  max_steps: 104\n  stall_window: 100\n"}}) {
    ASSERT_NE(text.find(from), std::string::npos) << from;
    text.replace(text.find(from), from.size(), to);
  }
  std::ofstream(dir / "stack.yaml") << text;
  const Result r = impactsim("run " + (dir / "stack.yaml").string() + " -o " + (dir / "out").string());
  EXPECT_EQ(r.code, kExitSimulation) << r.err;
  EXPECT_NE(r.err.find("more steps, more than 20 times the"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("simulation.max_steps leaves"), std::string::npos) << r.err;
}

// An angle of 1e308 degrees has no digits left; such a run once hung at t_end. Now every law stops
// it with the reason.
TEST(Run, AnAngleOfNoPrecisionStopsWithTheReason) {
  const fs::path dir = fresh_dir("huge_angle");
  std::string text = read_all(scene("rocking_block.yaml"));
  const std::string start = "initial: {y: 1.01}";
  text.replace(text.find(start), start.size(), "initial: {y: 1.01, theta_deg: 1e308}");
  std::ofstream(dir / "tilted.yaml") << text;
  for (const std::string law : {"anitescu-potra", "routh", "sequential", "propagative"}) {
    const Result r = impactsim("run " + (dir / "tilted.yaml").string() + " --law " + law + " -o " + (dir / law).string());
    EXPECT_EQ(r.code, kExitSimulation) << law << ": " << r.err;
    EXPECT_NE(r.err.find("rows up to t ="), std::string::npos) << law << ": " << r.err;
  }
}

// A plain run starts from the scene's initial values; only a batch run (and run --run) draws them.
TEST(Run, APlainRunDoesNotDrawTheRandomizeSection) {
  const fs::path dir = fresh_dir("nominal");
  const Result r = impactsim("run " + scene("rocking_block_random_tilt.yaml") + " -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("randomize: not drawn"), std::string::npos) << r.err;
  const std::vector<std::string> rows = split_lines(read_all(dir / "trajectory.csv"));
  ASSERT_GE(rows.size(), 2u);
  const Scene nominal = load_scene(scene("rocking_block_random_tilt.yaml"));
  EXPECT_DOUBLE_EQ(std::stod(split(rows[1])[3]), nominal.initial.q(2));  // theta at t = 0
}

TEST(Run, RunUnderEveryIntegrator) {
  // The same scene under each integrator: the inelastic box on the 15 degree slope (mu = 0.25)
  // slides 0.0850 m in 1 s; the fixed-step runs name their scheme and report the total variations.
  for (const std::string integrator : {"event-driven", "time-stepping", "drumwright"}) {
    const fs::path dir = fresh_dir("integrator_" + integrator);
    const Result r = impactsim("run " + scene("box_on_incline.yaml") + " --integrator " + integrator +
                               " --step 0.005 -o " + dir.string());
    if (integrator == "event-driven") {
      EXPECT_EQ(r.code, kExitUsage) << r.err;  // --step means nothing to it
      EXPECT_NE(r.err.find("--step"), std::string::npos) << r.err;
      continue;
    }
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find(integrator + " ("), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("h = 0.005 s"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("total variation"), std::string::npos) << r.err;
    std::istringstream csv(read_all(dir / "trajectory.csv"));
    std::string first, line, last;
    std::getline(csv, line);
    std::getline(csv, first);
    while (std::getline(csv, line)) last = line;
    const std::vector<std::string> a = split(first), b = split(last);
    const double dx = std::stod(b[1]) - std::stod(a[1]), dz = std::stod(b[3]) - std::stod(a[3]);
    EXPECT_NEAR(std::hypot(dx, dz), 0.085041, 2 * 9.81 * 0.005) << integrator;
  }
  EXPECT_EQ(impactsim("run " + scene("box_on_incline.yaml") + " --integrator rk4 -o " + fresh_dir("rk4").string()).code,
            kExitUsage);
  // A scene with pins has no event-driven form.
  const Result pins = impactsim("run " + scene("drumwright_pendulum.yaml") + " --integrator event-driven -o " +
                                fresh_dir("pins").string());
  EXPECT_EQ(pins.code, kExitUsage);
  EXPECT_NE(pins.err.find("pins"), std::string::npos) << pins.err;
}

}  // namespace
}  // namespace impactsim
