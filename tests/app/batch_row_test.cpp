// One batch run as its runs.csv row: the header's columns, a row per run that depends on (seed,
// run) alone, and the same row with or without the run's trajectory.
#include <gtest/gtest.h>

#include <algorithm>

#include "app/batch_row.hpp"
#include "impact/laws.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

const std::string kRocking = std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block.yaml";

long cells_of(const std::string& line) { return std::count(line.begin(), line.end(), ',') + 1; }

TEST(BatchRow, ColumnsFollowTheSceneAndRowsFillThem) {
  const Scene scene = load_scene(kRocking);
  const std::vector<std::string> columns = run_columns(scene);
  EXPECT_EQ(columns.front(), "run");
  EXPECT_EQ(columns.back(), "message");
  EXPECT_NE(std::find(columns.begin(), columns.end(), "final.block.theta"), columns.end());
  EXPECT_NE(std::find(columns.begin(), columns.end(), "A.closed"), columns.end());
  EXPECT_EQ(join_cells({"a", "b", ""}), "a,b,");
  const System quiet = final_row_only(scene.system);
  EXPECT_EQ(quiet.simulation.output_interval, scene.system.simulation.t_end);
  const auto law = make_law(scene.law, scene.laws);
  const std::string row = run_one(scene, quiet, *law, scene.law, 5, 3, "", false);
  EXPECT_EQ(cells_of(row), static_cast<long>(columns.size()));
  EXPECT_EQ(row.rfind("3,", 0), 0u);
  EXPECT_NE(row.find(",ok,"), std::string::npos);
  // Run 3 of seed 5 is the same row again, and with its trajectory written.
  EXPECT_EQ(run_one(scene, quiet, *law, scene.law, 5, 3, "", false), row);
  const fs::path dir = fresh_dir("batch_row_trajectory");
  EXPECT_EQ(run_one(scene, quiet, *law, scene.law, 5, 3, dir.string(), false), row);
  EXPECT_TRUE(fs::exists(dir / "trajectory.csv"));
  EXPECT_NE(run_one(scene, quiet, *law, scene.law, 5, 4, "", false).substr(2), row.substr(2));
}

}  // namespace
}  // namespace impactsim
