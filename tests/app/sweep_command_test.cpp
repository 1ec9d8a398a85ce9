// impactsim sweep end to end: the table against closed forms and against the commands run alone,
// the points' own outputs, and the errors that stop a sweep before it writes anything.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

// sweep.csv as rows of cells under its header's names (no quoted cells in these sweeps).
std::vector<std::map<std::string, std::string>> table(const fs::path& path) { return csv_rows(read_all(path)); }

// The box on the 15 degree slope released at rest: after T = 1 s it slides at
// v = g (sin a - mu cos a) T while mu < tan a (0.268) and sticks above, so its kinetic energy is
// 1/2 m v^2 (m = 500 kg/m^3 x 0.4 x 0.3 x 0.2 m = 12 kg) or 0.
TEST(Sweep, RunSweepOfFrictionMatchesTheClosedFormOfTheSlidingBox) {
  const fs::path dir = fresh_path("sweep_incline");
  const Result r = impactsim("sweep " + scene("box_on_incline.yaml") + " --param materials.mu=0:0.5:6 -q -o " +
                             dir.string() + " -- run");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rows = table(dir / "sweep.csv");
  ASSERT_EQ(rows.size(), 6u);
  const double a = 15 * std::numbers::pi / 180;
  for (size_t k = 0; k < rows.size(); ++k) {
    const double mu = 0.1 * static_cast<double>(k);
    EXPECT_EQ(rows[k].at("point"), std::to_string(k));
    EXPECT_DOUBLE_EQ(std::stod(rows[k].at("materials.mu")), mu);
    EXPECT_EQ(rows[k].at("exit"), "0");
    EXPECT_EQ(rows[k].at("failed"), "0");
    const double v = std::max(0.0, 9.81 * (std::sin(a) - mu * std::cos(a)));
    EXPECT_NEAR(std::stod(rows[k].at("final_kinetic_energy")), 0.5 * 12 * v * v, 1e-6 * (1 + 0.5 * 12 * v * v))
        << "mu = " << mu;
    EXPECT_EQ(rows[k].at("corner.-x-y-z.closed"), "1");
    const double depth = std::stod(rows[k].at("deepest_penetration"));  // resting on the slope: rigid contact
    EXPECT_GE(depth, 0.0);
    EXPECT_LE(depth, 1e-6);
    // A sticking box is at rest from the start: one rest event at t = 0.
    EXPECT_EQ(rows[k].at("events"), mu > std::tan(a) ? "1" : "0");
  }
  // Each point is an ordinary run's output directory, its override recorded.
  const std::string meta = read_all(dir / "points" / "3" / "metadata.json");
  EXPECT_NE(meta.find("\"materials.mu=0.3\""), std::string::npos) << meta;
  EXPECT_NE(meta.find("\"status\": \"ok\""), std::string::npos) << meta;
  EXPECT_TRUE(fs::exists(dir / "points" / "3" / "trajectory.csv"));
  const std::string sweep_meta = read_all(dir / "metadata.json");
  EXPECT_NE(sweep_meta.find("\"command\": \"sweep\""), std::string::npos) << sweep_meta;
  EXPECT_NE(read_all(dir / "sweep.json").find("\"command\": \"run\""), std::string::npos);
}

// A point of a batch sweep is the batch run alone with the same --set: byte for byte.
TEST(Sweep, BatchPointsAreTheBatchesRunAloneWithTheSameOverrides) {
  const fs::path dir = fresh_path("sweep_batch"), alone = fresh_path("sweep_batch_alone");
  const std::string options = " -- batch --runs 30 --law routh --seed 4 --threads 2";
  const Result r = impactsim("sweep " + scene("rocking_block.yaml") +
                             " --param simulation.routh.h=0.2,0.3 --param bodies[0].initial.vx=-0.1:0.1:3 -q -o " +
                             dir.string() + options);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rows = table(dir / "sweep.csv");
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[4].at("simulation.routh.h"), "0.3");
  EXPECT_EQ(rows[4].at("bodies[0].initial.vx"), "0");
  const Result single = impactsim("batch " + scene("rocking_block.yaml") +
                                  " --runs 30 --law routh --seed 4 -q --set simulation.routh.h=0.3 --set bodies[0].initial.vx=0 -o " +
                                  alone.string());
  ASSERT_EQ(single.code, 0) << single.err;
  EXPECT_EQ(read_all(dir / "points" / "4" / "runs.csv"), read_all(alone / "runs.csv"));
  // The table's statistics are those of the point's runs.
  EXPECT_EQ(rows[4].at("runs"), "30");
  const std::vector<std::string> lines = split_lines(read_all(alone / "runs.csv"));
  const std::vector<std::string> header = split(lines[0]);
  auto mean_of = [&](const std::string& name) {
    const size_t column = std::find(header.begin(), header.end(), name) - header.begin();
    EXPECT_LT(column, header.size()) << name;
    double sum = 0;
    for (size_t k = 1; k < lines.size() && column < header.size(); ++k) sum += std::stod(split(lines[k])[column]);
    return sum / 30;
  };
  EXPECT_NEAR(std::stod(rows[4].at("lifts_A.mean")), mean_of("lifts_A"), 1e-9);
  EXPECT_NEAR(std::stod(rows[4].at("first_lift_B.mean")), mean_of("first_lift_B"), 1e-9);
  EXPECT_NEAR(std::stod(rows[4].at("mean_impacts")), mean_of("impacts"), 1e-9);
}

// Impact sweeps give each contact's class fractions: they sum to 1 over the classes. The points'
// summaries stay in their summary.json, not printed one after another without saying which point.
TEST(Sweep, ImpactSweepClassFractionsSumToOne) {
  const fs::path dir = fresh_path("sweep_impact");
  const Result r = impactsim("sweep " + scene("rocking_block.yaml") + " --param materials.mu=0,0.2,0.6 -q -o " +
                             dir.string() + " -- impact --samples 500 --law routh --threads 2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(fs::exists(dir / "points" / "2" / "summary.json"));
  const auto rows = table(dir / "sweep.csv");
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("samples"), "500");
    for (const char* contact : {"A", "B"}) {
      double total = 0;
      for (const char* c : {"rest", "stick", "slide", "lift"}) total += std::stod(row.at(std::string(contact) + "." + c));
      EXPECT_NEAR(total, 1.0, 1e-9);
    }
  }
  // Without friction nothing sticks; with mu = 0.6 nothing slides (Halm and Posa's rocking block).
  EXPECT_EQ(std::stod(rows[0].at("A.stick")), 0.0);
  EXPECT_GT(std::stod(rows[0].at("A.slide")), 0.2);
  EXPECT_EQ(std::stod(rows[2].at("A.slide")), 0.0);
  EXPECT_GT(std::stod(rows[2].at("A.stick")), 0.2);
  EXPECT_TRUE(fs::exists(dir / "points" / "1" / "samples.csv"));
  EXPECT_TRUE(fs::exists(dir / "points" / "1" / "summary.json"));
}

// A list value with commas is one quoted cell; --resume reads such rows back (both points finished:
// nothing runs again, a line appended to a point's trajectory survives).
TEST(Sweep, ListValuesAreQuotedCells) {
  const fs::path dir = fresh_path("sweep_gravity");
  const std::string sweep = "sweep " + scene("bouncing_ball.yaml") +
                            " --param 'world.gravity=[0, 0, -9.81],[0, 0, -1.62]' --set simulation.t_end=0.5 -q -o " +
                            dir.string();
  const Result r = impactsim(sweep + " -- run");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string table = read_all(dir / "sweep.csv");
  const std::vector<std::string> lines = split_lines(table);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1].rfind("0,\"[0, 0, -9.81]\",0,", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind("1,\"[0, 0, -1.62]\",0,", 0), 0u) << lines[2];
  const fs::path trajectory = dir / "points" / "1" / "trajectory.csv";
  write_file(trajectory, read_all(trajectory) + "kept\n");
  const Result resumed = impactsim(sweep + " --resume -- run");
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_EQ(read_all(dir / "sweep.csv"), table);
  EXPECT_TRUE(read_all(trajectory).ends_with("kept\n"));
}

// robot.damping reaches a URDF joint's damping from a sweep; the URDF's ignored limits are warned
// once for the whole sweep, not once per point; and damping the legs changes the outcome.
TEST(Sweep, UrdfJointDampingIsSweptAndWarningsComeOnce) {
  const fs::path dir = fresh_path("sweep_damping");
  const Result r = impactsim("sweep " + scene("compass_gait_urdf.yaml") + " --param robot.damping.leading=0:0.4:3 -q -o " +
                             dir.string() + " -- run");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string warning = "<limit> lower/upper ignored";
  ASSERT_NE(r.err.find(warning), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(warning, r.err.find(warning) + 1), std::string::npos) << r.err;
  const std::vector<std::string> lines = split_lines(read_all(dir / "sweep.csv"));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].rfind("point,robot.damping.leading,exit,", 0), 0u) << lines[0];
  auto cells = [](const std::string& line) {
    std::vector<std::string> out(1);
    for (char c : line) {
      if (c == ',') out.emplace_back();
      else out.back().push_back(c);
    }
    return out;
  };
  const std::vector<std::string> header = cells(lines[0]);
  const auto kinetic = std::find(header.begin(), header.end(), "final_kinetic_energy") - header.begin();
  ASSERT_LT(kinetic, static_cast<long>(header.size()));
  EXPECT_NE(cells(lines[1])[kinetic], cells(lines[3])[kinetic]);  // undamped against damping 0.4
}

TEST(Sweep, BadSweepsStopBeforeWritingAnything) {
  const fs::path dir = fresh_path("sweep_bad");
  const std::string incline = scene("box_on_incline.yaml");
  struct Case {
    std::string args, message;
    int code;
  };
  const std::vector<Case> cases{
      {"--param materials.mu=0:1 -- run", "--param materials.mu=0:1: a range is START:STOP:N", 1},
      {"--param materials.mu=0,abc -- run", "--set materials.mu=abc: materials.mu: expected a number", 2},
      {"--param materials.mu=-1,0.5 -- run", "sweep point 0 of 2 (materials.mu=-1)", 2},
      {"--param materials.mu=0,1 -- fly", "the command after -- is run, impact or batch, not 'fly'", 1},
      {"--param materials.mu=0,1 -- run -o elsewhere", "give --output before --", 1},
      {"--param materials.mu=0,1 -- run --set materials.e=1", "give --set before --", 1},
      {"--param materials.mu=0,1 -- batch --resume", "--resume and --force of batch are the sweep's", 1},
      {"--param materials.mu=0,1 -- batch --rnus 3", "--rnus", 1},
      {"--param a=1 --param a=2 -- run", "--param a is given twice", 1},
      {"--param materials.mu=0,1", "give the command to run at each point after --", 1},
  };
  for (const Case& c : cases) {
    const Result r = impactsim("sweep " + incline + " -o " + dir.string() + " " + c.args);
    EXPECT_EQ(r.code, c.code) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_FALSE(fs::exists(dir)) << c.args;
  }
}

TEST(Sweep, AnotherSweepIsNotOverwrittenWithoutForce) {
  const fs::path dir = fresh_path("sweep_twice");
  const std::string args = "sweep " + scene("rocking_block.yaml") + " --param materials.mu=0.2,0.4 -q -o " + dir.string();
  ASSERT_EQ(impactsim(args + " -- batch --runs 4").code, 0);
  const Result again = impactsim(args + " -- batch --runs 4");
  EXPECT_EQ(again.code, 1);
  EXPECT_NE(again.err.find("sweep.csv already holds a sweep; --resume completes it, --force overwrites it"),
            std::string::npos)
      << again.err;
  const Result forced = impactsim(args + " --force -- batch --runs 5");
  ASSERT_EQ(forced.code, 0) << forced.err;
  EXPECT_EQ(table(dir / "sweep.csv")[1].at("runs"), "5");
}

// A point whose run stops keeps its row (exit 3, failed 1) and the sweep goes on; the sweep then
// exits with that code.
TEST(Sweep, APointThatFailsKeepsItsRowAndTheOthersRun) {
  const fs::path dir = fresh_path("sweep_fail");
  const Result r = impactsim("sweep " + scene("rocking_block.yaml") +
                             " --param simulation.routh.steps=1,10 -q -o " + dir.string() +
                             " -- run --law routh");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("1 of 2 points did not finish"), std::string::npos) << r.err;
  const auto rows = table(dir / "sweep.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("exit"), "3");
  EXPECT_EQ(rows[0].at("failed"), "1");
  EXPECT_NE(read_all(dir / "points" / "0" / "summary.json").find("\"status\": \"failed\""), std::string::npos);
  EXPECT_EQ(rows[1].at("exit"), "0");
}

// A sweep stopped part-way (here: the table cut after point 2, point 3's batch cut after a few runs
// and still marked running, point 4 never begun) is completed by --resume: the table and every
// point's runs.csv are those of the uninterrupted sweep, and the points it had finished are not run
// again (a line appended to point 0's runs.csv survives). A different sweep is not resumed.
TEST(Sweep, ResumeCompletesAnInterruptedSweepAndKeepsWhatItFinished) {
  const fs::path whole = fresh_path("sweep_whole"), cut = fresh_path("sweep_cut");
  const std::string grid = " --param simulation.routh.h=0.2,0.3 --param bodies[0].initial.vx=-0.1:0.1:3 -q -o ";
  const std::string command = " -- batch --runs 30 --law routh --seed 4";
  const std::string sweep = "sweep " + scene("rocking_block.yaml") + grid;
  ASSERT_EQ(impactsim(sweep + whole.string() + command).code, 0);
  ASSERT_EQ(impactsim(sweep + cut.string() + command).code, 0);
  const std::vector<std::string> lines = split_lines(read_all(cut / "sweep.csv"));
  ASSERT_EQ(lines.size(), 7u);
  std::string table_so_far;
  for (size_t k = 0; k < 4; ++k) table_so_far += lines[k] + "\n";
  write_file(cut / "sweep.csv", table_so_far + lines[4].substr(0, 5));  // and a partial line
  const fs::path point3 = cut / "points" / "3";
  write_file(point3 / "runs.csv", read_all(point3 / "runs.csv").substr(0, 1500));
  std::string meta = read_all(point3 / "metadata.json");
  meta.replace(meta.find("\"status\": \"ok\""), 14, "\"status\": \"running\"");
  write_file(point3 / "metadata.json", meta);
  fs::remove_all(cut / "points" / "4");
  fs::remove_all(cut / "points" / "5");
  const std::string runs0 = read_all(cut / "points" / "0" / "runs.csv") + "kept\n";
  write_file(cut / "points" / "0" / "runs.csv", runs0);

  const Result other = impactsim("sweep " + scene("rocking_block.yaml") +
                                 " --param simulation.routh.h=0.2,0.3 --param bodies[0].initial.vx=-0.1:0.1:4 -q -o " +
                                 cut.string() + " --resume" + command);
  EXPECT_EQ(other.code, 1);
  EXPECT_NE(other.err.find("cannot resume: it holds another sweep: its params"), std::string::npos) << other.err;
  const Result options = impactsim(sweep + cut.string() + " --resume -- batch --runs 31 --law routh --seed 4");
  EXPECT_EQ(options.code, 1);
  EXPECT_NE(options.err.find("its arguments"), std::string::npos) << options.err;
  EXPECT_EQ(impactsim(sweep + cut.string() + " --resume --force" + command).code, 1);

  const Result resumed = impactsim(sweep + cut.string() + " --resume" + command);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_EQ(read_all(cut / "sweep.csv"), read_all(whole / "sweep.csv"));
  for (const char* k : {"1", "2", "3", "4", "5"})
    EXPECT_EQ(read_all(cut / "points" / k / "runs.csv"), read_all(whole / "points" / k / "runs.csv")) << k;
  EXPECT_EQ(read_all(cut / "points" / "0" / "runs.csv"), runs0);
  EXPECT_NE(read_all(point3 / "metadata.json").find("\"status\": \"ok\""), std::string::npos);
}

}  // namespace
}  // namespace impactsim
