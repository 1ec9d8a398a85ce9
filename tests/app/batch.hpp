#pragma once
// A 40-run batch of the rocking block (seed 5) into a directory, for the batch and merge tests.
#include "tests/app/cli.hpp"

namespace impactsim::testing {

inline const std::string kScene = std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block.yaml";

// runs.csv of `batch kScene --runs 40 --seed 5 EXTRA` written into dir.
inline std::string batch(const fs::path& dir, const std::string& extra) {
  const Result r = impactsim("batch " + kScene + " --runs 40 --seed 5 -q -o " + dir.string() + " " + extra);
  EXPECT_EQ(r.code, 0) << extra << ": " << r.err;
  return read_all(dir / "runs.csv");
}

}  // namespace impactsim::testing
