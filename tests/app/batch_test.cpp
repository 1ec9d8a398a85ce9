// impactsim batch and merge: results independent of threads and slicing, resumable, replayable.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

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
  EXPECT_NE(one.find("run,seed,status,t_final,impacts,events,t_rest,final.block.x"), std::string::npos);
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
  std::string header, line, row17;
  std::getline(runs, header);
  while (std::getline(runs, line))
    if (line.rfind("17,", 0) == 0) row17 = line;
  ASSERT_FALSE(row17.empty());
  std::vector<std::string> names;
  for (std::istringstream s(header); std::getline(s, line, ',');) names.push_back(line);
  const size_t x = std::find(names.begin(), names.end(), "final.block.x") - names.begin();
  std::istringstream trajectory(read_all(one / "trajectory.csv"));
  std::string last;
  while (std::getline(trajectory, line)) last = line;
  // trajectory: t, x, y, theta, vx, vy, omega, K, U; runs.csv: ..., final.block.x, y, theta, vx, vy, omega, ...
  std::vector<std::string> r, t;
  for (std::istringstream s(row17); std::getline(s, line, ',');) r.push_back(line);
  for (std::istringstream s(last); std::getline(s, line, ',');) t.push_back(line);
  ASSERT_GE(r.size(), x + 6);
  ASSERT_GE(t.size(), 7u);
  for (size_t k = 0; k < 6; ++k) EXPECT_EQ(r[x + k], t[1 + k]) << k;
}

std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::string c;
  for (std::istringstream s(line); std::getline(s, c, ',');) cells.push_back(c);
  if (!line.empty() && line.back() == ',') cells.push_back("");
  return cells;
}

// The scene's outcome columns agree with the fixed ones they restate, and every run rests.
TEST(Batch, SceneOutcomeColumns) {
  const fs::path dir = fresh("outcomes");
  std::istringstream runs(batch(dir, ""));
  std::string line;
  std::getline(runs, line);
  const std::vector<std::string> header = cells_of(line);
  auto col = [&](const std::string& name) {
    const size_t c = std::find(header.begin(), header.end(), name) - header.begin();
    EXPECT_LT(c, header.size()) << name;
    return c;
  };
  const size_t tilt = col("final_tilt_deg"), theta = col("final.block.theta"), ia = col("impacts_A"),
               ib = col("impacts_B"), impacts = col("impacts"), t_rest = col("t_rest");
  EXPECT_EQ(header.back(), "impacts_B");
  long rows = 0;
  while (std::getline(runs, line)) {
    const std::vector<std::string> r = cells_of(line);
    ASSERT_EQ(r.size(), header.size()) << line;
    ++rows;
    EXPECT_NEAR(std::stod(r[tilt]), std::stod(r[theta]) * 180 / M_PI, 1e-9);
    // Every impact of the drop involves A or B or both.
    const long a = std::stol(r[ia]), b = std::stol(r[ib]), n = std::stol(r[impacts]);
    EXPECT_LE(std::max(a, b), n);
    EXPECT_GE(a + b, n);
    ASSERT_FALSE(r[t_rest].empty()) << "every drop ends at rest before t_end: " << line;
    EXPECT_LT(std::stod(r[t_rest]), 1.0);
  }
  EXPECT_EQ(rows, 40);
  // summary.json counts each value of the integer columns; the counts add up to the runs.
  const nlohmann::json summary = nlohmann::json::parse(read_all(dir / "summary.json"));
  const nlohmann::json& impacts_a = summary.at("columns").at("impacts_A");
  EXPECT_EQ(impacts_a.at("n"), 40);
  long total = 0;
  for (const auto& [value, n] : impacts_a.at("counts").items()) total += n.get<long>();
  EXPECT_EQ(total, 40);
}

// --trajectories K: the first K runs also write their files, whose last row is the run's final state;
// runs.csv is unchanged by it.
TEST(Batch, TrajectoriesOfTheFirstRuns) {
  const fs::path plain = fresh("plain"), with = fresh("with");
  const std::string expected = batch(plain, "");
  EXPECT_EQ(batch(with, "--trajectories 3 --threads 2"), expected);
  EXPECT_TRUE(fs::exists(with / "runs" / "2" / "events.csv"));
  EXPECT_FALSE(fs::exists(with / "runs" / "3"));
  std::istringstream runs(expected);
  std::string line, row1;
  std::getline(runs, line);
  const std::vector<std::string> header = cells_of(line);
  while (std::getline(runs, line))
    if (line.rfind("1,", 0) == 0) row1 = line;
  std::istringstream trajectory(read_all(with / "runs" / "1" / "trajectory.csv"));
  std::string last;
  while (std::getline(trajectory, line)) last = line;
  const std::vector<std::string> r = cells_of(row1), t = cells_of(last);
  const size_t x = std::find(header.begin(), header.end(), "final.block.x") - header.begin();
  ASSERT_GE(r.size(), x + 6);
  for (size_t k = 0; k < 6; ++k) EXPECT_EQ(r[x + k], t[1 + k]) << k;
  // Its events end with the rest the row reports.
  const std::string events = read_all(with / "runs" / "1" / "events.csv");
  EXPECT_NE(events.find(",rest,"), std::string::npos);
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
