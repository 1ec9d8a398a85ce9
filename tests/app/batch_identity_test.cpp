// batch.json: written and read back whole; what differs between two batches is named; a file that
// is missing or malformed is refused with the reason.
#include <gtest/gtest.h>

#include "app/batch_identity.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

BatchIdentity example() {
  return {"scenes/a.yaml", std::string(64, 'a'), "routh", 18446744073709551615ull, 40, 10, 20, "run,seed,status"};
}

TEST(BatchIdentity, RoundTrips) {
  const fs::path dir = fresh_dir("identity");
  write_batch_identity(dir, example());
  std::string error;
  const std::optional<BatchIdentity> b = read_batch_identity(dir, error);
  ASSERT_TRUE(b) << error;
  EXPECT_EQ(b->scene, "scenes/a.yaml");
  EXPECT_EQ(b->seed, 18446744073709551615ull);
  EXPECT_EQ(b->runs, 40);
  EXPECT_EQ(b->first, 10);
  EXPECT_EQ(b->count, 20);
  EXPECT_EQ(b->columns, "run,seed,status");
  EXPECT_EQ(batch_difference(*b, example()), "");
}

TEST(BatchIdentity, NamesWhatDiffers) {
  BatchIdentity other = example();
  other.seed = 6;
  other.runs = 30;
  other.scene_sha256 = std::string(64, 'b');
  other.first = 0;  // another slice of the same batch is no difference
  EXPECT_EQ(batch_difference(other, example()),
            "scene text scenes/a.yaml (was scenes/a.yaml, another text); seed 6 (was 18446744073709551615); runs 30 (was 40)");
  other = example();
  other.columns = "run,seed";
  EXPECT_EQ(batch_difference(other, example()), "columns");
}

TEST(BatchIdentity, MissingOrMalformedIsRefused) {
  const fs::path dir = fresh_dir("identity_bad");
  std::string error;
  EXPECT_FALSE(read_batch_identity(dir, error));
  EXPECT_NE(error.find("batch.json: missing"), std::string::npos) << error;
  std::ofstream(dir / "batch.json") << "{\"scene\": 1}";
  EXPECT_FALSE(read_batch_identity(dir, error));
  EXPECT_NE(error.find("not a batch identity"), std::string::npos) << error;
  BatchIdentity outside = example();
  outside.count = 31;  // 10 + 31 > 40
  write_batch_identity(dir, outside);
  EXPECT_FALSE(read_batch_identity(dir, error));
  EXPECT_NE(error.find("outside"), std::string::npos) << error;
  EXPECT_THROW(write_batch_identity("/proc/impactsim-no-such-dir", example()), std::runtime_error);
}

}  // namespace
}  // namespace impactsim
