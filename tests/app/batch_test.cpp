// impactsim batch and merge: results independent of threads and slicing, resumable, replayable.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
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

}  // namespace
}  // namespace impactsim
