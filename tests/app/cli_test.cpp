// The impactsim executable end to end: outputs, messages and exit codes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/commands.hpp"

namespace impactsim {
namespace {

namespace fs = std::filesystem;

struct Result {
  int code;
  std::string out, err;
};

std::string read_all(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("impactsim_cli_" + std::to_string(getpid()) + "_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// ctest runs tests in parallel processes, so each test captures output in a directory of its own.
Result impactsim(const std::string& args) {
  static int calls = 0;
  const fs::path dir =
      fresh_dir(std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_io" + std::to_string(calls++));
  const std::string cmd = std::string(IMPACTSIM_BINARY) + " " + args + " >" + (dir / "out").string() + " 2>" +
                          (dir / "err").string();
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_all(dir / "out"), read_all(dir / "err")};
}

std::string scene(const std::string& name) { return std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/" + name; }
std::string bad(const std::string& name) { return std::string(IMPACTSIM_SOURCE_DIR) + "/tests/scenes/bad/" + name; }

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream s(line);
  for (std::string cell; std::getline(s, cell, ',');) out.push_back(cell);
  return out;
}

TEST(Cli, RunWritesTheTrajectoryOfTheDefaultScene) {
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

TEST(Cli, RunWritesEventsOfTheRockingBlock) {
  const fs::path dir = fresh_dir("rocking");
  const Result r = impactsim("run " + scene("rocking_block.yaml") + " --law anitescu-potra -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream events(dir / "events.csv");
  std::string header, line;
  std::getline(events, header);
  EXPECT_EQ(header, "t,kind,contacts,law,kinetic_energy_before,kinetic_energy_after,impulse_n,ordering");
  ASSERT_TRUE(std::getline(events, line));
  const auto cells = split(line);
  ASSERT_EQ(cells.size(), 7u);  // the ordering cell is empty for a simultaneous law (getline drops it)
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

TEST(Cli, SequentialRunLogsItsOrdering) {
  const fs::path dir = fresh_dir("ordering");
  const Result r = impactsim("run " + scene("rocking_block.yaml") + " --law sequential -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream events(dir / "events.csv");
  std::string header, line;
  std::getline(events, header);
  ASSERT_TRUE(std::getline(events, line));
  const auto cells = split(line);
  ASSERT_EQ(cells.size(), 8u);
  EXPECT_EQ(cells[1], "impact");
  EXPECT_EQ(cells[7], "A;B");  // cyclic from the first contact
}

TEST(Cli, UnsolvableImpactExitsWithThreeAndKeepsTheRows) {
  const fs::path dir = fresh_dir("wedge");
  const Result r = impactsim("run " + std::string(IMPACTSIM_SOURCE_DIR) + "/tests/scenes/contact/jammed_wedge.yaml -o " +
                             dir.string());
  EXPECT_EQ(r.code, kExitSimulation);
  EXPECT_NE(r.err.find("ray termination"), std::string::npos) << r.err;
  const std::string csv = read_all(dir / "trajectory.csv");
  EXPECT_GT(std::count(csv.begin(), csv.end(), '\n'), 10);
}

TEST(Cli, UnknownLawOnTheCommandLineIsAUsageError) {
  const Result r = impactsim("run " + scene("rocking_block.yaml") + " --law nope -o " + fresh_dir("law").string());
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_NE(r.err.find("unknown impact law 'nope'"), std::string::npos) << r.err;
}

// impactsim impact: the rocking block's first impact (reached by simulating the 1 cm drop), sampled
// with the Routh law, byte-identical for one and two threads.
TEST(Cli, ImpactSamplesAreTheSameForAnyThreadCount) {
  const fs::path a = fresh_dir("impact1"), b = fresh_dir("impact2");
  const std::string common = "impact " + scene("rocking_block.yaml") + " --law routh --samples 3000 --seed 9 -o ";
  const Result r1 = impactsim(common + a.string() + " --threads 1");
  const Result r2 = impactsim(common + b.string() + " --threads 2");
  ASSERT_EQ(r1.code, 0) << r1.err;
  ASSERT_EQ(r2.code, 0) << r2.err;
  const std::string csv = read_all(a / "samples.csv");
  EXPECT_EQ(csv, read_all(b / "samples.csv"));
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3001);
  std::istringstream lines(csv);
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "sample,block.vx,block.vy,block.omega,A.vn,A.vt,B.vn,B.vt,kinetic_energy,lcp_solves,terminated,A.class,B.class");
  // The summary names the three classes of Halm and Posa's Fig. 9 and nothing else.
  EXPECT_NE(r1.out.find("A:lift B:stick"), std::string::npos) << r1.out;
  EXPECT_NE(r1.out.find("A:stick B:lift"), std::string::npos) << r1.out;
  EXPECT_NE(r1.out.find("A:rest B:rest"), std::string::npos) << r1.out;
  EXPECT_NE(r1.out.find("seed 9"), std::string::npos);
  EXPECT_NE(r1.out.find("samples per second"), std::string::npos);
}

TEST(Cli, ImpactListsAnitescuPotraSolutionsAndSequentialOrderings) {
  const fs::path a = fresh_dir("solutions"), b = fresh_dir("orderings");
  const Result solutions = impactsim("impact " + scene("rocking_block.yaml") + " --all-solutions -o " + a.string());
  ASSERT_EQ(solutions.code, 0) << solutions.err;
  const std::string s = read_all(a / "samples.csv");
  EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), 2);  // header and the single solution: rest
  EXPECT_NE(s.find(",rest,rest"), std::string::npos) << s;
  const Result orderings = impactsim("impact " + scene("rocking_block.yaml") + " --orderings all -o " + b.string());
  ASSERT_EQ(orderings.code, 0) << orderings.err;
  EXPECT_NE(orderings.out.find("ordering 0: A,B"), std::string::npos) << orderings.out;
  EXPECT_NE(orderings.out.find("ordering 1: B,A"), std::string::npos) << orderings.out;
  const std::string o = read_all(b / "samples.csv");
  EXPECT_EQ(std::count(o.begin(), o.end(), '\n'), 3);
}

TEST(Cli, ImpactWithoutAnImpactIsAClearError) {
  const Result r = impactsim("impact " + scene("double_pendulum.yaml") + " -o " + fresh_dir("noimpact").string());
  EXPECT_EQ(r.code, kExitScene);
  EXPECT_NE(r.err.find("no impact happens before t_end"), std::string::npos) << r.err;
}

TEST(Cli, QuietRunPrintsNothing) {
  const fs::path dir = fresh_dir("quiet");
  const Result r = impactsim("run --quiet " + scene("double_pendulum.yaml") + " -o " + dir.string());
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "");
}

TEST(Cli, CheckPrintsTheModelSummary) {
  const Result r = impactsim("check " + scene("double_pendulum.yaml"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("bodies       2, total mass 2 kg"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nq = 2, nv = 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("upper: revolute joint to world"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("planar       yes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("initial      kinetic 0 J"), std::string::npos) << r.out;
}

TEST(Cli, SceneErrorExitsWithTwoAndWritesNothing) {
  const fs::path dir = fresh_dir("bad") / "never";
  const Result r = impactsim("run " + bad("negative_mass.yaml") + " -o " + dir.string());
  EXPECT_EQ(r.code, kExitScene);
  EXPECT_NE(r.err.find("negative_mass.yaml:4:11: bodies[0].mass: must not be negative"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir));
}

TEST(Cli, MissingSceneFileExitsWithTwo) {
  const Result r = impactsim("check /no/such/scene.yaml");
  EXPECT_EQ(r.code, kExitScene);
  EXPECT_NE(r.err.find("/no/such/scene.yaml: cannot open"), std::string::npos) << r.err;
}

TEST(Cli, FailedSimulationKeepsTheRowsWrittenSoFar) {
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

TEST(Cli, UnwritableOutputExitsWithFour) {
  const Result r = impactsim("run " + scene("double_pendulum.yaml") + " -o /proc/impactsim-cannot-write");
  EXPECT_EQ(r.code, kExitOutput) << r.err;
  EXPECT_NE(r.err.find("/proc/impactsim-cannot-write"), std::string::npos) << r.err;
}

TEST(Cli, UsageErrorsExitWithOne) {
  EXPECT_EQ(impactsim("").code, kExitUsage);
  EXPECT_EQ(impactsim("run").code, kExitUsage);
  EXPECT_EQ(impactsim("frobnicate").code, kExitUsage);
  EXPECT_EQ(impactsim("run x.yaml --no-such-flag").code, kExitUsage);
}

TEST(Cli, RunUnderEveryIntegrator) {
  // The same scene under each integrator: the inelastic box on the 15 degree slope (mu = 0.25)
  // slides 0.0850 m in 1 s; the fixed-step runs name their scheme and report the total variations.
  for (const std::string integrator : {"event-driven", "time-stepping", "drumwright"}) {
    const fs::path dir = fresh_dir("integrator_" + integrator);
    const Result r = impactsim("run " + scene("box_on_incline_mu025.yaml") + " --integrator " + integrator +
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
  EXPECT_EQ(impactsim("run " + scene("box_on_incline_mu025.yaml") + " --integrator rk4 -o " + fresh_dir("rk4").string()).code,
            kExitUsage);
  // A scene with pins has no event-driven form.
  const Result pins = impactsim("run " + scene("drumwright_pendulum.yaml") + " --integrator event-driven -o " +
                                fresh_dir("pins").string());
  EXPECT_EQ(pins.code, kExitUsage);
  EXPECT_NE(pins.err.find("pins"), std::string::npos) << pins.err;
}

TEST(Cli, ConvergeReportsFirstOrderForTheSlidingBox) {
  const fs::path dir = fresh_dir("converge");
  const Result r = impactsim("converge " + scene("box_on_incline_mu025.yaml") + " --steps 0.02,0.01,0.005 -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream csv(read_all(dir / "convergence.csv"));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "h,steps,impacts,q_error_max,q_error_final,v_error_final,order,wall_s");
  std::vector<std::vector<std::string>> rows;
  while (std::getline(csv, line)) rows.push_back(split(line));
  ASSERT_EQ(rows.size(), 3u);
  // Semi-implicit Euler is first order on the smooth slide: the error halves with h.
  for (size_t k = 1; k < rows.size(); ++k) EXPECT_NEAR(std::stod(rows[k][6]), 1.0, 0.1) << line;
  EXPECT_LT(std::stod(rows[2][3]), 2 * 9.81 * 0.005);
  // Bad input: one step size, a negative one, a pinned scene.
  EXPECT_EQ(impactsim("converge " + scene("box_on_incline_mu025.yaml") + " --steps 0.01 -o " + dir.string()).code, kExitUsage);
  EXPECT_EQ(impactsim("converge " + scene("box_on_incline_mu025.yaml") + " --steps 0.01,-0.005 -o " + dir.string()).code,
            kExitUsage);
  EXPECT_EQ(impactsim("converge " + scene("drumwright_pendulum.yaml") + " --steps 0.01,0.005 -o " + dir.string()).code,
            kExitUsage);
}

TEST(Cli, EverySubcommandHasHelp) {
  for (const std::string cmd : {"", "run ", "check ", "impact ", "converge "}) {
    const Result r = impactsim(cmd + "--help");
    EXPECT_EQ(r.code, 0) << cmd;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << cmd << r.out;
  }
}

}  // namespace
}  // namespace impactsim
