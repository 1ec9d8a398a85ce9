// Support points against the solids they belong to: every support point lies on the solid's
// surface, and no point of a dense sample of the solid's surface reaches farther along u.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "collision/contact.hpp"
#include "collision/support.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

using testing::round_shape;
using testing::box_shape;
using testing::sphere_shape;

// Points of the solid's surface: a grid in each coordinate chart, fine enough for 1e-3 m.
std::vector<Vec3> surface_sample(const Shape& s) {
  std::vector<Vec3> out;
  const int n = 60;
  const double pi = std::acos(-1.0);
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) {
      const double a = double(i) / n, b = double(j) / n;
      const double theta = 2 * pi * a, polar = pi * b;
      switch (s.type) {
        case ShapeType::box:
          for (int axis = 0; axis < 3; ++axis)
            for (double sign : {-1.0, 1.0}) {
              Vec3 x;
              x[axis] = sign * s.size[axis] / 2;
              x[(axis + 1) % 3] = (a - 0.5) * s.size[(axis + 1) % 3];
              x[(axis + 2) % 3] = (b - 0.5) * s.size[(axis + 2) % 3];
              out.push_back(x);
            }
          break;
        case ShapeType::sphere:
          out.push_back(s.radius * Vec3(std::sin(polar) * std::cos(theta), std::sin(polar) * std::sin(theta),
                                        std::cos(polar)));
          break;
        case ShapeType::capsule: {
          const Vec3 dir(std::sin(polar) * std::cos(theta), std::sin(polar) * std::sin(theta), std::cos(polar));
          out.push_back(Vec3(0, 0, (dir.z() >= 0 ? 1 : -1) * s.length / 2) + s.radius * dir);
          out.push_back(Vec3(s.radius * std::cos(theta), s.radius * std::sin(theta), (b - 0.5) * s.length));
          break;
        }
        case ShapeType::cylinder:
          out.push_back(Vec3(s.radius * std::cos(theta), s.radius * std::sin(theta), (b - 0.5) * s.length));
          for (double sign : {-1.0, 1.0})
            out.push_back(Vec3(b * s.radius * std::cos(theta), b * s.radius * std::sin(theta), sign * s.length / 2));
          break;
        case ShapeType::cone:  // the slant side from rim to apex, and the base disk
          out.push_back(Vec3((1 - b) * s.radius * std::cos(theta), (1 - b) * s.radius * std::sin(theta), (b - 0.5) * s.length));
          out.push_back(Vec3(b * s.radius * std::cos(theta), b * s.radius * std::sin(theta), -s.length / 2));
          break;
        case ShapeType::convex:  // tests/collision/convex_shape_test.cpp compares it with the box
        case ShapeType::halfspace: break;
      }
    }
  return out;
}

TEST(SupportPoint, IsTheFarthestPointOfTheSolidAlongU) {
  std::mt19937 rng(7);
  std::normal_distribution<double> g;
  for (const Shape& s : {box_shape(Vec3(0.4, 1.0, 2.2)), sphere_shape(0.7), round_shape(ShapeType::capsule, 0.3, 1.2),
                         round_shape(ShapeType::cylinder, 0.5, 0.2), round_shape(ShapeType::cone, 0.5, 0.8)}) {
    const std::vector<Vec3> sample = surface_sample(s);
    for (int trial = 0; trial < 200; ++trial) {
      const Vec3 u = Vec3(g(rng), g(rng), g(rng)).normalized();
      const Vec3 x = support_point(s, u);
      EXPECT_NEAR(point_to_shape(s, x).distance, 0.0, 1e-12) << shape_type_name(s.type);
      double farthest = -1e9;
      for (const Vec3& y : sample) farthest = std::max(farthest, u.dot(y));
      EXPECT_GE(u.dot(x), farthest - 1e-12) << shape_type_name(s.type);
      EXPECT_LT(u.dot(x) - farthest, 2e-3) << shape_type_name(s.type);
    }
  }
}

TEST(SupportPoint, TakesTheCentreOfAFaceFacingU) {
  EXPECT_TRUE(support_point(box_shape(Vec3(2, 4, 6)), Vec3(0, 0, -1)).isApprox(Vec3(0, 0, -3)));
  EXPECT_TRUE(support_point(box_shape(Vec3(2, 4, 6)), Vec3(1, 1, 0)).isApprox(Vec3(1, 2, 0)));
  EXPECT_TRUE(support_point(round_shape(ShapeType::cylinder, 1, 2), Vec3(0, 0, 5)).isApprox(Vec3(0, 0, 1)));
  EXPECT_TRUE(support_point(round_shape(ShapeType::capsule, 1, 2), Vec3(3, 0, 0)).isApprox(Vec3(1, 0, 0)));
}

TEST(SupportPoint, RefusesAHalfspace) {
  Shape h;
  h.type = ShapeType::halfspace;
  EXPECT_THROW(support_point(h, Vec3::UnitZ()), std::invalid_argument);
}

}  // namespace
}  // namespace impactsim
