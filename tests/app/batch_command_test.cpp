// impactsim batch: results independent of threads, resumable, replayable, with the scene's outcome
// columns and summary.json.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "app/run_tally.hpp"
#include "tests/app/batch.hpp"
#include "tests/app/hdf5_read.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(Batch, SameRunsForAnyThreadCount) {
  const std::string one = batch(fresh_path("k1"), "--threads 1");
  const std::string two = batch(fresh_path("k2"), "--threads 2");
  EXPECT_EQ(one, two);
  EXPECT_EQ(std::count(one.begin(), one.end(), '\n'), 41);
  EXPECT_NE(one.find("run,seed,status,reason,t_final,impacts,events,time_steps,stepped_time,dependent_closes,t_rest,"
                     "deepest_penetration,final.block.x"), std::string::npos);
  // The runs differ from one another: the Routh law draws a new outcome for each.
  std::istringstream s(one);
  std::string header, a, b;
  std::getline(s, header);
  std::getline(s, a);
  std::getline(s, b);
  EXPECT_NE(a.substr(a.find(',', a.find(',') + 1)), b.substr(b.find(',', b.find(',') + 1)));
}

TEST(Batch, InterruptedBatchResumesToTheSameResult) {
  const fs::path whole = fresh_path("uninterrupted"), cut = fresh_path("interrupted");
  const std::string expected = batch(whole, "");
  batch(cut, "");
  {
    // Killed after 13 runs, in the middle of writing run 13.
    std::string head = expected.substr(0, nth_line_end(expected, 14));
    std::ofstream(cut / "runs.csv", std::ios::binary | std::ios::trunc) << head << "13,1234,ok,,0.5";
    fs::remove(cut / "summary.json");
  }
  batch(cut, "--resume");
  EXPECT_EQ(read_all(cut / "runs.csv"), expected);
  EXPECT_EQ(read_all(cut / "summary.json"), read_all(whole / "summary.json"));
}

// A directory that already holds a batch's runs is not overwritten by accident: without --resume
// or --force batch refuses (exit 1) and leaves the files as they were; --force starts afresh.
TEST(Batch, RefusesADirectoryWithResultsUnlessResumedOrForced) {
  const fs::path dir = fresh_path("taken");
  const std::string first = batch(dir, "");
  const std::string other = " --runs 5 --seed 9 -q -o " + dir.string();
  const Result refused = impactsim("batch " + kScene + other);
  EXPECT_EQ(refused.code, 1);
  EXPECT_NE(refused.err.find("already holds a batch's runs; --resume completes it, --force overwrites it"),
            std::string::npos)
      << refused.err;
  EXPECT_EQ(read_all(dir / "runs.csv"), first);
  EXPECT_EQ(impactsim("batch " + kScene + other + " --resume --force").code, 1);
  ASSERT_EQ(impactsim("batch " + kScene + other + " --force").code, 0);
  const std::string forced = read_all(dir / "runs.csv");
  EXPECT_EQ(std::count(forced.begin(), forced.end(), '\n'), 6);
}

// A resumed batch must be the same batch: other --set overrides are another scene text.
TEST(Batch, ResumeRefusesOtherOverrides) {
  const fs::path dir = fresh_path("overrides");
  batch(dir, "--set materials.mu=0.5");
  const Result r = impactsim("batch " + kScene + " --runs 40 --seed 5 -q -o " + dir.string() + " --resume --set materials.mu=0.6");
  EXPECT_EQ(r.code, 4);
  EXPECT_EQ(impactsim("batch " + kScene + " --runs 40 --seed 5 -q -o " + dir.string() + " --resume --set materials.mu=0.5").code, 0);
}

// A scene whose every run fails: the bouncing ball allowed only 4 events.
fs::path failing_scene() {
  const fs::path path = fresh_dir("failing_scene") / "ball.yaml";
  std::string text = read_all(scene("bouncing_ball.yaml"));
  const std::string zeno = "    v_zeno: 1.0e-3";
  text.replace(text.find(zeno), zeno.size(), zeno + "\n    max_events: 4");
  std::ofstream(path) << text;
  return path;
}

// A batch whose runs have Zeno closes over nearly dependent contacts says how many, in the words
// and with the docs pointer `run` uses, naming runs.csv's column.
TEST(Batch, WarnsAboutRunsWithDependentCloses) {
  const fs::path dir = fresh_path("dependent_closes");
  const Result r = impactsim("batch " + coin_with_a_dependent_close().string() + " --runs 1 -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("1 of 1 runs have Zeno closes that " + RunTally::dependent_close_meaning("runs.csv")),
            std::string::npos) << r.err;
  EXPECT_NE(r.err.find(RunTally::kDependentCloseReadme), std::string::npos) << r.err;
  const std::vector<std::string> lines = split_lines(read_all(dir / "runs.csv"));
  ASSERT_EQ(lines.size(), 2u);
  const std::vector<std::string> header = split(lines[0]), row = split(lines[1]);
  EXPECT_EQ(row[std::find(header.begin(), header.end(), "dependent_closes") - header.begin()], "1");
}

// A failed run's row carries the reason and the state where it stopped, never the initial state,
// and is the same with or without --trajectories; summary.json and the last line count the failures.
TEST(Batch, AFailedRowHoldsWhereAndWhyTheRunStopped) {
  const std::string ball = failing_scene().string();
  const fs::path plain = fresh_path("fail_plain"), with = fresh_path("fail_with");
  const Result r = impactsim("batch " + ball + " --runs 3 --seed 1 -o " + plain.string());
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("3 of 3 runs failed (event_limit 3)"), std::string::npos) << r.err;
  ASSERT_EQ(impactsim("batch " + ball + " --runs 3 --seed 1 -q --trajectories 3 -o " + with.string()).code, 0);
  const std::string rows = read_all(plain / "runs.csv");
  EXPECT_EQ(read_all(with / "runs.csv"), rows);
  const std::vector<std::string> lines = split_lines(rows);
  ASSERT_EQ(lines.size(), 4u);
  const std::vector<std::string> header = split(lines[0]);
  auto col = [&](const std::string& name) { return std::find(header.begin(), header.end(), name) - header.begin(); };
  for (size_t k = 1; k < lines.size(); ++k) {
    const std::vector<std::string> r = split(lines[k]);
    ASSERT_EQ(r.size(), header.size());
    EXPECT_EQ(r[col("status")], "failed");
    EXPECT_EQ(r[col("reason")], "event_limit");
    EXPECT_NE(r[col("message")].find("events"), std::string::npos) << r[col("message")];
    // After four bounces: t past the third impact (1.34 s), the ball near the ground, not at 1.1 m.
    EXPECT_GT(std::stod(r[col("t_final")]), 1.3);
    EXPECT_LT(std::stod(r[col("final.ball.z")]), 1.0);
    EXPECT_EQ(r[col("impacts")], "4");
  }
  const nlohmann::json summary = nlohmann::json::parse(read_all(plain / "summary.json"));
  EXPECT_EQ(summary.at("failed"), 3);
  EXPECT_EQ(summary.at("failures"), (nlohmann::json{{"event_limit", 3}}));
}

// --format hdf5 also writes runs.h5 from the complete runs.csv: the same columns in the same order,
// numbers equal to runs.csv's (an empty cell, t_rest of a run that never rested, is NaN), and seed,
// status, reason and message as text. A later batch in the directory without it removes the file,
// which would no longer match runs.csv.
TEST(Batch, Hdf5RunsHoldWhatRunsCsvHolds) {
  const std::string ball = failing_scene().string();
  const fs::path dir = fresh_path("batch_h5");
  const Result r = impactsim("batch " + ball + " --runs 3 --seed 1 -q --format hdf5 -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::vector<std::string> lines = split_lines(read_all(dir / "runs.csv"));
  ASSERT_EQ(lines.size(), 4u);
  const std::vector<std::string> header = split(lines[0]);
  {
    const Hdf5File file((dir / "runs.h5").string());
    ASSERT_TRUE(file.ok());
    ASSERT_EQ(file.columns(), header);
    const std::set<std::string> text{"seed", "status", "reason", "message"};
    for (size_t c = 0; c < header.size(); ++c) {
      if (text.count(header[c])) {
        const std::vector<std::string> labels = file.labels(header[c]);
        ASSERT_EQ(labels.size(), 3u) << header[c];
        for (size_t k = 0; k < 3; ++k) EXPECT_EQ(labels[k], split(lines[k + 1])[c]) << header[c];
        continue;
      }
      const std::vector<double> values = file.numbers(header[c]);
      ASSERT_EQ(values.size(), 3u) << header[c];
      for (size_t k = 0; k < 3; ++k) {
        const std::string cell = split(lines[k + 1])[c];
        if (cell.empty()) EXPECT_TRUE(std::isnan(values[k])) << header[c];
        else EXPECT_EQ(values[k], std::stod(cell)) << header[c];
      }
    }
    EXPECT_NE(file.labels("message")[0].find("events"), std::string::npos);
  }
  ASSERT_EQ(impactsim("batch " + ball + " --runs 3 --seed 1 -q --force -o " + dir.string()).code, 0);
  EXPECT_FALSE(fs::exists(dir / "runs.h5"));
}

// --resume continues only the batch the directory holds, and only from well-formed rows.
TEST(Batch, ResumeRefusesAnotherBatch) {
  const fs::path dir = fresh_path("resume_refused");
  const std::string rows = batch(dir, "");
  const std::string before = read_all(dir / "runs.csv");
  for (const std::string other : {"--runs 40 --seed 6", "--runs 30 --seed 5", "--runs 40 --seed 5 --law sequential",
                                  "--runs 40 --seed 5 --first 3"}) {
    const Result r = impactsim("batch " + kScene + " " + other + " --resume -q -o " + dir.string());
    EXPECT_EQ(r.code, kExitOutput) << other;
    EXPECT_NE(r.err.find("cannot resume: it holds another batch"), std::string::npos) << other << ": " << r.err;
    EXPECT_EQ(read_all(dir / "runs.csv"), before) << other;
  }
  // A garbage line among the rows is not kept or counted.
  std::ofstream(dir / "runs.csv", std::ios::binary | std::ios::trunc)
      << rows.substr(0, nth_line_end(rows, 5)) << "garbage\n" << rows.substr(nth_line_end(rows, 5));
  const Result garbage = impactsim("batch " + kScene + " --runs 40 --seed 5 --resume -q -o " + dir.string());
  EXPECT_EQ(garbage.code, kExitOutput);
  EXPECT_NE(garbage.err.find("line 6 is not the row of run 4"), std::string::npos) << garbage.err;
}

// A trajectory directory that cannot be created is exit 4 naming the file; it once aborted.
TEST(Batch, AnUnwritableTrajectoryDirectoryExitsWithFour) {
  const fs::path dir = fresh_dir("no_runs_dir");
  std::ofstream(dir / "runs") << "a file where the runs/ directory goes";
  const Result r = impactsim("batch " + kScene + " --runs 4 --seed 5 --trajectories 2 -q -o " + dir.string());
  EXPECT_EQ(r.code, kExitOutput) << r.err;
  EXPECT_NE(r.err.find("runs/0/trajectory.csv"), std::string::npos) << r.err;
  EXPECT_EQ(read_all(dir / "runs.csv").rfind("run,seed,", 0), 0u);
}

// A count past the end of the batch stops at its last run, however large.
TEST(Batch, AHugeCountStopsAtTheLastRun) {
  const fs::path dir = fresh_path("huge_count");
  batch(dir, "--first 35 --count 9223372036854775807");
  const std::vector<std::string> lines = split_lines(read_all(dir / "runs.csv"));
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[1].rfind("35,", 0), 0u);
  EXPECT_EQ(lines[5].rfind("39,", 0), 0u);
}

// impactsim run --seed S --run i replays run i of the batch: the same final state, steps and
// penetration.
TEST(Batch, AnyRunReplaysOnItsOwn) {
  const fs::path dir = fresh_path("replay"), one = fresh_path("one");
  batch(dir, "");
  ASSERT_EQ(impactsim("run " + kScene + " --seed 5 --run 17 -q -o " + one.string()).code, 0);
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
  // Its steps and penetration are the replayed run's summary.json's, to the row's precision; rigid
  // contact: never deeper than the distance tolerance.
  const nlohmann::json summary = nlohmann::json::parse(read_all(one / "summary.json"));
  auto cell = [&](const std::string& name) {
    const size_t c = std::find(names.begin(), names.end(), name) - names.begin();
    EXPECT_LT(c, r.size()) << name;
    return c < r.size() ? r[c] : std::string();
  };
  EXPECT_EQ(std::stol(cell("time_steps")), summary.at("time_steps").get<long>());
  EXPECT_NEAR(std::stod(cell("stepped_time")), summary.at("stepped_time").get<double>(), 1e-12);
  const double depth = std::stod(cell("deepest_penetration"));
  EXPECT_NEAR(depth, summary.at("deepest_penetration").get<double>(), 1e-9 * depth + 1e-300);
  EXPECT_GE(depth, 0.0);
  EXPECT_LE(depth, 1e-6);
}

// The scene's outcome columns agree with the fixed ones they restate, and every run rests.
TEST(Batch, SceneOutcomeColumns) {
  const fs::path dir = fresh_path("outcomes");
  std::istringstream runs(batch(dir, ""));
  std::string line;
  std::getline(runs, line);
  const std::vector<std::string> header = split(line);
  auto col = [&](const std::string& name) {
    const size_t c = std::find(header.begin(), header.end(), name) - header.begin();
    EXPECT_LT(c, header.size()) << name;
    return c;
  };
  const size_t tilt = col("final_tilt_deg"), theta = col("final.block.theta"), fa = col("first_lift_A"),
               fb = col("first_lift_B"), la = col("lifts_A"), lb = col("lifts_B"), impacts = col("impacts"),
               t_rest = col("t_rest");
  EXPECT_EQ(header.back(), "message");
  EXPECT_EQ(header[header.size() - 2], "lifts_B");
  long rows = 0, rocked = 0;
  while (std::getline(runs, line)) {
    const std::vector<std::string> r = split(line);
    ASSERT_EQ(r.size(), header.size()) << line;
    ++rows;
    EXPECT_NEAR(std::stod(r[tilt]), std::stod(r[theta]) * 180 / M_PI, 1e-9);
    // Every impact of the flat drop involves both corners; no impact lifts both (the block would fly
    // off the ground), so the lifts add up to at most the impacts, and a first lift is a lift.
    const long a = std::stol(r[la]), b = std::stol(r[lb]), n = std::stol(r[impacts]);
    const int first_a = std::stoi(r[fa]), first_b = std::stoi(r[fb]);
    EXPECT_LE(a + b, n) << line;
    EXPECT_LE(first_a + first_b, 1) << line;
    EXPECT_GE(a, first_a) << line;
    EXPECT_GE(b, first_b) << line;
    // A block whose first impact lifts no corner is at rest after it; one that rocks hits again.
    EXPECT_EQ(n == 1, first_a + first_b == 0) << line;
    rocked += first_a + first_b;
    ASSERT_FALSE(r[t_rest].empty()) << "every drop ends at rest before t_end: " << line;
    EXPECT_LT(std::stod(r[t_rest]), 1.0);
  }
  EXPECT_GT(rocked, 0);  // the Routh law samples rocking outcomes (Halm and Posa, Fig. 9)
  EXPECT_LT(rocked, 40);  // and resting ones
  EXPECT_EQ(rows, 40);
  // summary.json counts each value of the integer columns; the counts add up to the runs.
  const nlohmann::json summary = nlohmann::json::parse(read_all(dir / "summary.json"));
  const nlohmann::json& impacts_a = summary.at("columns").at("lifts_A");
  EXPECT_EQ(impacts_a.at("n"), 40);
  long total = 0;
  for (const auto& [value, n] : impacts_a.at("counts").items()) total += n.get<long>();
  EXPECT_EQ(total, 40);
}

// --trajectories K: the first K runs also write their files, whose last row is the run's final state;
// runs.csv is unchanged by it.
TEST(Batch, TrajectoriesOfTheFirstRuns) {
  const fs::path plain = fresh_path("plain"), with = fresh_path("with");
  const std::string expected = batch(plain, "");
  EXPECT_EQ(batch(with, "--trajectories 3 --threads 2"), expected);
  EXPECT_TRUE(fs::exists(with / "runs" / "2" / "events.csv"));
  EXPECT_FALSE(fs::exists(with / "runs" / "3"));
  std::istringstream runs(expected);
  std::string line, row1;
  std::getline(runs, line);
  const std::vector<std::string> header = split(line);
  while (std::getline(runs, line))
    if (line.rfind("1,", 0) == 0) row1 = line;
  std::istringstream trajectory(read_all(with / "runs" / "1" / "trajectory.csv"));
  std::string last;
  while (std::getline(trajectory, line)) last = line;
  const std::vector<std::string> r = split(row1), t = split(last);
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
  const fs::path dir = fresh_path("tilt"), one = fresh_path("tilt_one");
  ASSERT_EQ(impactsim("batch " + scene + " --runs 12 --seed 8 -q -o " + dir.string()).code, 0);
  ASSERT_EQ(impactsim("run " + scene + " --seed 8 --run 5 -q -o " + one.string()).code, 0);
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
