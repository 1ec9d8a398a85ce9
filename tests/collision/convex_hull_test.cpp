// Convex hulls by Qhull: the hull of a cube's corners and points inside it is the cube (closed,
// outward, convex, volume 1, inside points dropped); flat and too small point sets are refused.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "collision/convex_hull.hpp"

namespace impactsim {
namespace {

TEST(ConvexHull, OfACubeAndPointsInsideIsTheCube) {
  std::vector<Vec3> points;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> inside(0.05, 0.95);
  for (int i = 0; i < 50; ++i) points.push_back(Vec3(inside(rng), inside(rng), inside(rng)));
  for (int k = 0; k < 8; ++k) points.push_back(Vec3(k & 1, k & 2 ? 1 : 0, k & 4 ? 1 : 0));
  const TriangleMesh hull = convex_hull(points);
  EXPECT_EQ(hull.vertices.size(), 8u);
  EXPECT_EQ(hull.triangles.size(), 12u);
  EXPECT_EQ(closed_mesh_problem(hull), "");
  EXPECT_EQ(convexity_problem(hull, 1e-12), "");
  EXPECT_NEAR(mesh_volume(hull), 1.0, 1e-14);
  const MassProperties p = mesh_mass_properties(hull, 1.0);
  EXPECT_TRUE(p.com.isApprox(Vec3::Constant(0.5), 1e-14));
}

TEST(ConvexHull, OfPointsOnASphereEnclosesThemAll) {
  std::vector<Vec3> points;
  std::mt19937 rng(5);
  std::normal_distribution<double> g;
  for (int i = 0; i < 300; ++i) points.push_back(Vec3(g(rng), g(rng), g(rng)).normalized());
  const TriangleMesh hull = convex_hull(points);
  EXPECT_EQ(hull.vertices.size(), 300u);  // every point on a sphere is extreme
  EXPECT_EQ(closed_mesh_problem(hull), "");
  const double v = mesh_volume(hull);
  EXPECT_LT(v, 4.0 / 3 * std::acos(-1.0));
  EXPECT_GT(v, 0.95 * 4.0 / 3 * std::acos(-1.0));
}

TEST(ConvexHull, RefusesFlatAndTooFewPoints) {
  EXPECT_THROW(convex_hull({Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY()}), std::invalid_argument);
  try {
    convex_hull({Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3(1, 1, 0), Vec3(0.5, 0.2, 0)});
    FAIL() << "flat points accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("span no volume"), std::string::npos) << e.what();
  }
  EXPECT_THROW(convex_hull({Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3(0, 0, NAN)}), std::invalid_argument);
}

}  // namespace
}  // namespace impactsim
