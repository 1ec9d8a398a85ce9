// impactsim batch and merge: results independent of threads and slicing, resumable, replayable.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <fstream>
#include <sstream>

#include "app/commands.hpp"

namespace impactsim {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

fs::path fresh(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("impactsim_batch_" + std::to_string(getpid()) + "_" + name);
  fs::remove_all(dir);
  return dir;
}

int impactsim(const std::string& args) {
  const int status = std::system((std::string(IMPACTSIM_BINARY) + " " + args + " > /dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

const std::string kScene = std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block.yaml";

std::string batch(const fs::path& dir, const std::string& extra) {
  EXPECT_EQ(impactsim("batch " + kScene + " --runs 40 --seed 5 -q -o " + dir.string() + " " + extra), 0) << extra;
  return read_all(dir / "runs.csv");
}

TEST(Batch, SameRunsForAnyThreadCount) {
  const std::string one = batch(fresh("k1"), "--threads 1");
  const std::string two = batch(fresh("k2"), "--threads 2");
  EXPECT_EQ(one, two);
  EXPECT_EQ(std::count(one.begin(), one.end(), '\n'), 41);
  EXPECT_NE(one.find("run,seed,status,t_final,impacts,events,final.block.x"), std::string::npos);
  // The runs differ from one another: the Routh law draws a new outcome for each.
  std::istringstream s(one);
  std::string header, a, b;
  std::getline(s, header);
  std::getline(s, a);
  std::getline(s, b);
  EXPECT_NE(a.substr(a.find(',', a.find(',') + 1)), b.substr(b.find(',', b.find(',') + 1)));
}

TEST(Batch, MergedSlicesEqualTheWholeBatch) {
  const fs::path whole = fresh("whole"), s1 = fresh("s1"), s2 = fresh("s2"), merged = fresh("merged");
  const std::string expected = batch(whole, "--threads 2");
  batch(s2, "--first 25");  // slices in any order
  batch(s1, "--first 0 --count 25");
  ASSERT_EQ(impactsim("merge " + s2.string() + " " + s1.string() + " -o " + merged.string()), 0);
  EXPECT_EQ(read_all(merged / "runs.csv"), expected);
  EXPECT_EQ(read_all(merged / "summary.json"), read_all(whole / "summary.json"));
  EXPECT_NE(impactsim("merge " + s1.string() + " " + s1.string() + " -o " + fresh("dup").string()), 0);  // a run twice
}

TEST(Batch, InterruptedBatchResumesToTheSameResult) {
  const fs::path whole = fresh("uninterrupted"), cut = fresh("interrupted");
  const std::string expected = batch(whole, "");
  batch(cut, "--count 13");  // stopped after 13 runs...
  {
    std::ofstream partial(cut / "runs.csv", std::ios::binary | std::ios::app);
    partial << "13,1234,ok,0.5";  // ... in the middle of writing run 13
  }
  batch(cut, "--resume");
  EXPECT_EQ(read_all(cut / "runs.csv"), expected);
  EXPECT_EQ(read_all(cut / "summary.json"), read_all(whole / "summary.json"));
}

// impactsim run --seed S --run i replays run i of the batch: the same final state.
TEST(Batch, AnyRunReplaysOnItsOwn) {
  const fs::path dir = fresh("replay"), one = fresh("one");
  batch(dir, "");
  ASSERT_EQ(impactsim("run " + kScene + " --seed 5 --run 17 -q -o " + one.string()), 0);
  std::istringstream runs(read_all(dir / "runs.csv"));
  std::string line, row17;
  while (std::getline(runs, line))
    if (line.rfind("17,", 0) == 0) row17 = line;
  ASSERT_FALSE(row17.empty());
  std::istringstream trajectory(read_all(one / "trajectory.csv"));
  std::string last;
  while (std::getline(trajectory, line)) last = line;
  // trajectory: t, x, y, theta, vx, vy, omega, K, U; runs.csv: ..., t_final, impacts, events, x, y, ...
  std::vector<std::string> r, t;
  for (std::istringstream s(row17); std::getline(s, line, ',');) r.push_back(line);
  for (std::istringstream s(last); std::getline(s, line, ',');) t.push_back(line);
  ASSERT_GE(r.size(), 12u);
  ASSERT_GE(t.size(), 7u);
  for (int k = 0; k < 6; ++k) EXPECT_EQ(r[6 + k], t[1 + k]) << k;
}

// Randomized initial conditions are drawn per run, recorded, and replayed by run --run.
TEST(Batch, RandomTiltIsRecordedAndReplayed) {
  const std::string scene = std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block_random_tilt.yaml";
  const fs::path dir = fresh("tilt"), one = fresh("tilt_one");
  ASSERT_EQ(impactsim("batch " + scene + " --runs 12 --seed 8 -q -o " + dir.string()), 0);
  ASSERT_EQ(impactsim("run " + scene + " --seed 8 --run 5 -q -o " + one.string()), 0);
  std::istringstream runs(read_all(dir / "runs.csv"));
  std::string header, line, row5;
  std::getline(runs, header);
  EXPECT_EQ(header.rfind("run,seed,init.block.theta,status,", 0), 0u) << header;
  std::set<std::string> tilts;
  while (std::getline(runs, line)) {
    std::vector<std::string> cells;
    for (std::istringstream s(line); std::getline(s, header, ',');) cells.push_back(header);
    EXPECT_LE(std::abs(std::stod(cells[2])), 0.5 * M_PI / 180);
    tilts.insert(cells[2]);
    if (cells[0] == "5") row5 = line;
  }
  EXPECT_EQ(tilts.size(), 12u);  // a fresh draw every run
  std::istringstream trajectory(read_all(one / "trajectory.csv"));
  std::getline(trajectory, line);
  std::getline(trajectory, line);  // t = 0: the drawn initial state
  std::vector<std::string> t0, r5;
  for (std::istringstream s(line); std::getline(s, header, ',');) t0.push_back(header);
  for (std::istringstream s(row5); std::getline(s, header, ',');) r5.push_back(header);
  EXPECT_EQ(t0[3], r5[2]);  // theta at t = 0 is the recorded draw
}

}  // namespace
}  // namespace impactsim
