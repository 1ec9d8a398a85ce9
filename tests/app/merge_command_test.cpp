// impactsim merge: slices of a batch joined into the whole batch, byte for byte.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/commands.hpp"
#include "tests/app/batch.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(Merge, MergedSlicesEqualTheWholeBatch) {
  const fs::path whole = fresh_path("whole"), s1 = fresh_path("s1"), s2 = fresh_path("s2"), merged = fresh_path("merged");
  const std::string expected = batch(whole, "--threads 2");
  batch(s2, "--first 25");  // slices in any order
  batch(s1, "--first 0 --count 25");
  ASSERT_EQ(impactsim("merge " + s2.string() + " " + s1.string() + " -o " + merged.string()).code, 0);
  EXPECT_EQ(read_all(merged / "runs.csv"), expected);
  EXPECT_EQ(read_all(merged / "summary.json"), read_all(whole / "summary.json"));
  // Both embed what produced the runs; the merge's own metadata.json says it merged which slices.
  const nlohmann::json summary = nlohmann::json::parse(read_all(merged / "summary.json"));
  const nlohmann::json slice = nlohmann::json::parse(read_all(s1 / "metadata.json"));
  EXPECT_EQ(summary["provenance"]["scene"], slice["scene"]);
  EXPECT_EQ(summary["provenance"]["settings"], slice["settings"]);
  EXPECT_EQ(summary["provenance"]["command"], "batch");
  EXPECT_FALSE(summary["provenance"].contains("command_line"));  // the slices' differ; the batch's is the same
  const nlohmann::json meta = nlohmann::json::parse(read_all(merged / "metadata.json"));
  EXPECT_EQ(meta["command"], "merge");
  EXPECT_EQ(meta["status"], "ok");
  EXPECT_EQ(meta["slices"].size(), 2u);
  EXPECT_EQ(meta["scene"]["name"], "rocking_block");
  EXPECT_EQ(meta["settings"]["seed"], slice["settings"]["seed"]);
  EXPECT_NE(meta["command_line"].get<std::string>().find("merge "), std::string::npos);
}

TEST(Merge, ARunInTwoSlicesIsRefused) {
  const fs::path s1 = fresh_path("once");
  batch(s1, "--first 0 --count 25");
  const Result r = impactsim("merge " + s1.string() + " " + s1.string() + " -o " + fresh_path("dup").string());
  EXPECT_EQ(r.code, kExitOutput);
  EXPECT_NE(r.err.find("runs 0..24 are also in another slice"), std::string::npos) << r.err;
}

TEST(Merge, SlicesOfAnotherSceneAreRefused) {
  const fs::path a = fresh_path("rocking"), b = fresh_path("tilt");
  batch(a, "--count 5");
  ASSERT_EQ(impactsim("batch " + scene("rocking_block_random_tilt.yaml") + " --runs 10 --first 5 -q -o " + b.string()).code, 0);
  const Result r = impactsim("merge " + a.string() + " " + b.string() + " -o " + fresh_path("mixed").string());
  EXPECT_EQ(r.code, kExitOutput);
  EXPECT_NE(r.err.find("not a slice of the batch"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("scene text"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(fresh_path("mixed") / "runs.csv"));
}

TEST(Merge, ADirectoryThatIsNoBatchIsRefused) {
  const Result r = impactsim("merge " + fresh_dir("empty").string() + " -o " + fresh_path("out").string());
  EXPECT_EQ(r.code, kExitOutput);
  EXPECT_NE(r.err.find("batch.json: missing"), std::string::npos) << r.err;
}

TEST(Merge, AnOutputThatIsAFileIsRefusedWithTheReason) {
  const fs::path s = fresh_path("to_file"), file = fresh_dir("file_out") / "merged";
  batch(s, "");
  std::ofstream(file) << "not a directory";
  const Result r = impactsim("merge " + s.string() + " -o " + file.string());
  EXPECT_EQ(r.code, kExitOutput);
  EXPECT_NE(r.err.find(file.string() + ": cannot create the output directory"), std::string::npos) << r.err;
}

// merge S0 S1 -o S0 once overwrote S0 while reading it.
TEST(Merge, MergingIntoASliceIsRefusedAndTheSliceKept) {
  const fs::path s0 = fresh_path("keep0"), s1 = fresh_path("keep1");
  const std::string rows = batch(s0, "--count 20");
  batch(s1, "--first 20");
  const Result r = impactsim("merge " + s0.string() + " " + s1.string() + " -o " + s0.string());
  EXPECT_EQ(r.code, kExitOutput);
  EXPECT_NE(r.err.find("the output directory is one of the slices"), std::string::npos) << r.err;
  EXPECT_EQ(read_all(s0 / "runs.csv"), rows);
}

TEST(Merge, AMissingMiddleSliceIsRefused) {
  const fs::path a = fresh_path("gap0"), c = fresh_path("gap2");
  batch(a, "--count 10");
  batch(c, "--first 20");
  const Result r = impactsim("merge " + a.string() + " " + c.string() + " -o " + fresh_path("gap").string());
  EXPECT_EQ(r.code, kExitOutput);
  EXPECT_NE(r.err.find("no slice holds runs 10..19 of the 40"), std::string::npos) << r.err;
  const Result end = impactsim("merge " + a.string() + " -o " + fresh_path("gap_end").string());
  EXPECT_EQ(end.code, kExitOutput);
  EXPECT_NE(end.err.find("no slice holds runs 10..39 of the 40"), std::string::npos) << end.err;
}

// A slice cut by a kill (a missing tail, a partial row) or holding a corrupt row is refused.
TEST(Merge, AnIncompleteOrCorruptSliceIsRefused) {
  const fs::path a = fresh_path("cut0"), b = fresh_path("cut1");
  batch(a, "--count 20");
  const std::string rows = batch(b, "--first 20");
  std::ofstream(b / "runs.csv", std::ios::binary | std::ios::trunc) << rows.substr(0, nth_line_end(rows, 8)) << "27,1";
  const Result cut = impactsim("merge " + a.string() + " " + b.string() + " -o " + fresh_path("cut").string());
  EXPECT_EQ(cut.code, kExitOutput);
  EXPECT_NE(cut.err.find("holds 7 of its 20 runs (20..39)"), std::string::npos) << cut.err;
  std::ofstream(b / "runs.csv", std::ios::binary | std::ios::trunc)
      << rows.substr(0, nth_line_end(rows, 3)) << "\n" << rows.substr(nth_line_end(rows, 3));
  const Result blank = impactsim("merge " + a.string() + " " + b.string() + " -o " + fresh_path("blank").string());
  EXPECT_EQ(blank.code, kExitOutput);
  EXPECT_NE(blank.err.find("line 4"), std::string::npos) << blank.err;
}

}  // namespace
}  // namespace impactsim
