// impactsim merge: slices of a batch joined into the whole batch, byte for byte.
#include <gtest/gtest.h>

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
}

TEST(Merge, ARunInTwoSlicesIsRefused) {
  const fs::path s1 = fresh_path("once");
  batch(s1, "--first 0 --count 25");
  const Result r = impactsim("merge " + s1.string() + " " + s1.string() + " -o " + fresh_path("dup").string());
  EXPECT_EQ(r.code, kExitOutput);
  EXPECT_NE(r.err.find("is also in another slice"), std::string::npos) << r.err;
}

TEST(Merge, SlicesOfAnotherSceneAreRefused) {
  const fs::path a = fresh_path("rocking"), b = fresh_path("tilt");
  batch(a, "--count 5");
  ASSERT_EQ(impactsim("batch " + scene("rocking_block_random_tilt.yaml") + " --runs 10 --first 5 -q -o " + b.string()).code, 0);
  const Result r = impactsim("merge " + a.string() + " " + b.string() + " -o " + fresh_path("mixed").string());
  EXPECT_EQ(r.code, kExitOutput);
  EXPECT_NE(r.err.find("columns differ"), std::string::npos) << r.err;
}

TEST(Merge, ASliceWithoutRunsCsvIsRefused) {
  const Result r = impactsim("merge " + fresh_dir("empty").string() + " -o " + fresh_path("out").string());
  EXPECT_EQ(r.code, kExitOutput);
  EXPECT_NE(r.err.find("no runs.csv to merge"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace impactsim
