// What --plot draws from: the outlines of a planar scene's shapes (a skeleton for bodies without
// one), the wireframes of a 3-D scene's, each body's pose and the touching contacts at every row,
// and the plot tool's call and failure.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

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

// Flat on the ground both corners touch, at (-+0.5, 0); in the air none does.
TEST(PlotOutput, TouchingContactsAreMarkedWhereTheyTouch) {
  const fs::path dir = fresh_dir("contact_points");
  const Scene s = load_scene(scene("rocking_block.yaml"));
  PoseWriter poses(dir.string(), s);
  const Eigen::Vector3d v = Eigen::Vector3d::Zero();
  poses.row(Sample{0.0, Eigen::Vector3d(0.0, 1.5, 0.3), v, 0, 0});
  poses.row(Sample{0.5, Eigen::Vector3d(0.0, 1.0, 0.0), v, 0, 0});
  poses.flush();
  const auto r = rows(dir / "contact_points.csv");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0], (std::vector<std::string>{"t", "contact", "x", "y", "z"}));
  for (size_t k : {1u, 2u}) {
    EXPECT_EQ(r[k][0], "0.5");
    EXPECT_EQ(r[k][1], k == 1 ? "A" : "B");
    EXPECT_NEAR(std::stod(r[k][2]), k == 1 ? -0.5 : 0.5, 1e-12);
    EXPECT_NEAR(std::stod(r[k][3]), 0.0, 1e-12);
  }
}

// The 0.2 m cube: its 12 edges as two closed squares (z = -+0.1) and four verticals, every point
// a corner; the ground a square in z = 0. At rest on a face its pose is (x, y, 0.1) and the identity
// quaternion, and its four bottom corners touch.
TEST(PlotOutput, ThreeDimensionalScenesGetWireframesAndQuaternionPoses) {
  const fs::path dir = fresh_dir("wireframes");
  const Scene s = load_scene(scene("cube_toss.yaml"));
  write_outlines(dir.string(), s);
  EXPECT_FALSE(fs::exists(dir / "outlines.csv"));
  const auto w = rows(dir / "wireframes.csv");
  ASSERT_FALSE(w.empty());
  EXPECT_EQ(w[0], (std::vector<std::string>{"body", "shape", "stroke", "x", "y", "z"}));
  std::map<std::string, int> points_per_stroke;
  for (size_t k = 1; k < w.size(); ++k) {
    if (w[k][0] == "world") {
      EXPECT_EQ(std::stod(w[k][5]), 0.0);
      continue;
    }
    ++points_per_stroke[w[k][2]];
    for (int c = 3; c < 6; ++c) EXPECT_NEAR(std::abs(std::stod(w[k][c])), 0.1, 1e-12) << k;
  }
  EXPECT_EQ(points_per_stroke, (std::map<std::string, int>{{"0", 5}, {"1", 5}, {"2", 2}, {"3", 2}, {"4", 2}, {"5", 2}}));

  PoseWriter poses(dir.string(), s);
  Eigen::VectorXd q(7), v = Eigen::VectorXd::Zero(6);
  q << 0.3, -0.2, 0.1, 1, 0, 0, 0;
  poses.row(Sample{2.0, q, v, 0, 0});
  const Eigen::Quaterniond turned(Eigen::AngleAxisd(0.5, Eigen::Vector3d(1, 2, 3).normalized()));
  q << 0.3, -0.2, 2.0, turned.w(), turned.x(), turned.y(), turned.z();
  poses.row(Sample{2.5, q, v, 0, 0});
  poses.flush();
  const auto p = rows(dir / "poses.csv");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0], (std::vector<std::string>{"t", "cube.x", "cube.y", "cube.z", "cube.qw", "cube.qx", "cube.qy", "cube.qz"}));
  const double expected[2][7] = {{0.3, -0.2, 0.1, 1, 0, 0, 0},
                                 {0.3, -0.2, 2.0, turned.w(), turned.x(), turned.y(), turned.z()}};
  for (int k = 0; k < 2; ++k)
    for (int c = 0; c < 7; ++c) EXPECT_NEAR(std::stod(p[k + 1][c + 1]), expected[k][c], 1e-9) << k << " " << c;
  const auto c = rows(dir / "contact_points.csv");
  ASSERT_EQ(c.size(), 5u);  // the four bottom corners at t = 2, none in the air
  for (size_t k = 1; k < c.size(); ++k) {
    EXPECT_EQ(c[k][0], "2");
    EXPECT_NEAR(std::abs(std::stod(c[k][2]) - 0.3), 0.1, 1e-9);
    EXPECT_NEAR(std::abs(std::stod(c[k][3]) + 0.2), 0.1, 1e-9);
    EXPECT_NEAR(std::stod(c[k][4]), 0.0, 1e-9);
  }
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
