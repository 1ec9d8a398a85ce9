// summary.json from runs.csv: streamed statistics of every numeric column (Welford), counts of
// columns with few integer values, failures, closed fractions; partial rows left out.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "app/batch_summary.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(BatchSummary, ColumnStatisticsMatchTheTwoPassFormulas) {
  ColumnStats s;
  const std::vector<double> x{3, 1, 4, 1, 5, 9, 2, 6};
  double mean = 0, ss = 0;
  for (double v : x) {
    s.add(v);
    mean += v / x.size();
  }
  for (double v : x) ss += (v - mean) * (v - mean);
  EXPECT_EQ(s.n, 8);
  EXPECT_NEAR(s.mean, mean, 1e-14);
  EXPECT_NEAR(s.sd(), std::sqrt(ss / 7), 1e-14);
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 9.0);
  ASSERT_TRUE(s.countable);
  EXPECT_EQ(s.counts.at(1), 2);
  // A fraction, or a 33rd distinct value, ends the counting.
  ColumnStats f;
  f.add(0.5);
  EXPECT_FALSE(f.countable);
  ColumnStats many;
  for (int k = 0; k < 33; ++k) many.add(k);
  EXPECT_FALSE(many.countable);
  EXPECT_TRUE(many.counts.empty());
  EXPECT_EQ(ColumnStats().sd(), 0.0);
}

TEST(BatchSummary, SummaryComesFromTheCompleteRows) {
  const fs::path dir = fresh_dir("summary");
  std::ofstream(dir / "runs.csv", std::ios::binary) << "run,seed,status,reason,impacts,t_rest,final.kinetic_energy,A.closed,message\n"
                                                       "0,11,ok,,3,0.5,0.5,1,\n"
                                                       "1,12,failed,stalled,2,,1.5,0,no progress\n"
                                                       "2,13,ok,,4";  // partial: left out
  write_summary(dir);
  const nlohmann::json s = nlohmann::json::parse(read_all(dir / "summary.json"));
  EXPECT_EQ(s.at("runs"), 2);
  EXPECT_EQ(s.at("failed"), 1);
  EXPECT_EQ(s.at("mean_impacts"), 2.5);
  EXPECT_EQ(s.at("final_kinetic_energy").at("min"), 0.5);
  EXPECT_EQ(s.at("final_kinetic_energy").at("max"), 1.5);
  EXPECT_EQ(s.at("closed_fraction").at("A"), 0.5);
  const nlohmann::json& columns = s.at("columns");
  EXPECT_FALSE(columns.contains("run"));
  EXPECT_FALSE(columns.contains("seed"));
  EXPECT_FALSE(columns.contains("status"));
  EXPECT_FALSE(columns.contains("reason"));
  EXPECT_FALSE(columns.contains("message"));
  EXPECT_EQ(s.at("failures"), (nlohmann::json{{"stalled", 1}}));
  EXPECT_EQ(columns.at("t_rest").at("n"), 1);  // the empty cell is no value
  EXPECT_EQ(columns.at("impacts").at("counts"), (nlohmann::json{{"2", 1}, {"3", 1}}));
  EXPECT_FALSE(columns.at("final.kinetic_energy").contains("counts"));
  // The keys keep their order.
  const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(read_all(dir / "summary.json"));
  std::vector<std::string> keys;
  for (const auto& [key, value] : ordered.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"runs", "failed", "failures", "time_step_runs", "mean_impacts", "final_kinetic_energy", "closed_fraction",
                                            "columns"}));
}

// The runs with Zeno closes over nearly dependent contacts (dependent_closes above 0), which batch
// warns about; a failed run's empty cell and a zero are not counted, nor is a partial row.
TEST(BatchSummary, CountsTheRunsWithDependentCloses) {
  const fs::path dir = fresh_dir("summary_dependent");
  std::ofstream(dir / "runs.csv", std::ios::binary) << "run,seed,status,reason,dependent_closes,message\n"
                                                       "0,11,ok,,0,\n"
                                                       "1,12,ok,,3,\n"
                                                       "2,13,failed,invalid_draw,,bad draw\n"
                                                       "3,14,ok,,1,\n"
                                                       "4,15,ok,,2";  // partial: left out
  const FailureCounts counts = write_summary(dir);
  EXPECT_EQ(counts.runs, 4);
  EXPECT_EQ(counts.dependent_close_runs, 2);
  const nlohmann::json s = nlohmann::json::parse(read_all(dir / "summary.json"));
  EXPECT_EQ(s.at("columns").at("dependent_closes").at("counts"), (nlohmann::json{{"0", 1}, {"1", 1}, {"3", 1}}));
}

TEST(BatchSummary, AnUnwritableDirectoryThrowsNamingTheFile) {
  EXPECT_THROW(write_summary("/proc/impactsim-no-such-dir"), std::runtime_error);
}

// Issue 62, item 4: two batches writing one runs.csv made summary.json count 3,000 runs of 1,500.
// The lock now keeps a second writer out; a run's row written twice still counts once.
TEST(BatchSummary, ARunWrittenTwiceCountsOnceAndTimeStepRunsAreCounted) {
  const fs::path dir = fresh_dir("summary_twice");
  std::ofstream(dir / "runs.csv", std::ios::binary) << "run,seed,status,reason,impacts,time_steps,message\n"
                                                       "0,11,ok,,3,0,\n"
                                                       "1,12,ok,,5,2,\n"
                                                       "0,11,ok,,3,0,\n"
                                                       "1,12,ok,,5,2,\n";
  const FailureCounts counts = write_summary(dir, "", R"({"signal": "SIGTERM", "resume": "impactsim batch s.yaml --resume"})");
  EXPECT_EQ(counts.runs, 2);
  EXPECT_EQ(counts.time_step_runs, 1);
  const nlohmann::json s = nlohmann::json::parse(read_all(dir / "summary.json"));
  EXPECT_EQ(s.at("runs"), 2);
  EXPECT_EQ(s.at("mean_impacts"), 4.0);
  EXPECT_EQ(s.at("time_step_runs"), 1);
  EXPECT_EQ(s.at("interrupted").at("signal"), "SIGTERM");
  EXPECT_EQ(s.at("interrupted").at("resume"), "impactsim batch s.yaml --resume");
}

}  // namespace
}  // namespace impactsim
