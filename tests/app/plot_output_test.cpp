// What --plot draws from: the outlines of a planar scene's shapes (a skeleton for bodies without
// one), each body's pose at every row, and the plot tool's call and failure.
#include <gtest/gtest.h>

#include <cstdlib>

#include "app/plot_output.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

std::vector<std::vector<std::string>> rows(const fs::path& path) {
  std::vector<std::vector<std::string>> out;
  std::istringstream in(read_all(path));
  for (std::string line; std::getline(in, line);) out.push_back(split(line));
  return out;
}

TEST(PlotOutput, OutlinesOfShapesAndSkeletonsOfBodiesWithout) {
  const fs::path dir = fresh_dir("outlines");
  const Scene rocking = load_scene(scene("rocking_block.yaml"));
  write_outlines(dir.string(), rocking);
  const auto r = rows(dir / "outlines.csv");
  ASSERT_GT(r.size(), 6u);
  EXPECT_EQ(r[0], (std::vector<std::string>{"body", "shape", "x", "y"}));
  // The ground (two points of its line), then the block's rectangle, closed: five corners.
  int block = 0;
  for (const auto& row : r)
    if (row[0] == "block") {
      ++block;
      EXPECT_EQ(std::abs(std::stod(row[2])), 0.5);
      EXPECT_EQ(std::abs(std::stod(row[3])), 1.0);
    }
  EXPECT_EQ(block, 5);
  // The compass gait's legs have no shapes: a skeleton from the joint to its contact and com.
  const fs::path gait = fresh_dir("skeleton");
  write_outlines(gait.string(), load_scene(scene("compass_gait.yaml")));
  bool skeleton = false;
  for (const auto& row : rows(gait / "outlines.csv")) skeleton = skeleton || row[1] == "skeleton";
  EXPECT_TRUE(skeleton);
}

TEST(PlotOutput, PosesArePlanarWorldPoses) {
  const fs::path dir = fresh_dir("poses");
  const Scene s = load_scene(scene("rocking_block.yaml"));
  PoseWriter poses(dir.string(), s);
  const Eigen::Vector3d q(0.2, 1.5, 0.3), v = Eigen::Vector3d::Zero();
  poses.row(Sample{0.25, q, v, 0, 0});
  poses.flush();  // rows are buffered until the run flushes them
  const auto r = rows(dir / "poses.csv");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0], (std::vector<std::string>{"t", "block.x", "block.y", "block.theta"}));
  EXPECT_EQ(std::stod(r[1][0]), 0.25);
  EXPECT_NEAR(std::stod(r[1][1]), 0.2, 1e-12);
  EXPECT_NEAR(std::stod(r[1][2]), 1.5, 1e-12);
  EXPECT_NEAR(std::stod(r[1][3]), 0.3, 1e-12);
}

TEST(PlotOutput, TheToolGetsTheKindAndDirectoryAndItsExitCodeDecides) {
  const fs::path dir = fresh_dir("tool");
  std::ofstream(dir / "ok.py") << "import sys\nopen(sys.argv[2] + '/args', 'w').write(' '.join(sys.argv[1:]))\n";
  std::ofstream(dir / "fails.py") << "import sys\nsys.exit(3)\n";
  setenv("IMPACTSIM_PLOT_TOOL", (dir / "ok.py").c_str(), 1);
  EXPECT_TRUE(run_plot_tool("batch", dir.string(), "--nq 3"));
  EXPECT_EQ(read_all(dir / "args"), "batch " + dir.string() + " --nq 3");
  setenv("IMPACTSIM_PLOT_TOOL", (dir / "fails.py").c_str(), 1);
  EXPECT_FALSE(run_plot_tool("run", dir.string()));
  unsetenv("IMPACTSIM_PLOT_TOOL");
}

}  // namespace
}  // namespace impactsim
