// Exact point-to-shape signed distances against closed forms, and their gradients against finite
// differences.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "collision/contact.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

TEST(PointToShape, ClosedForms) {
  Shape h;
  h.type = ShapeType::halfspace;
  h.normal = Vec3(0, 0, 1);
  h.offset = 0.5;
  EXPECT_DOUBLE_EQ(point_to_shape(h, Vec3(3, 4, 2)).distance, 1.5);
  EXPECT_DOUBLE_EQ(point_to_shape(testing::sphere_shape(1), Vec3(0, 3, 4)).distance, 4.0);
  EXPECT_EQ(point_to_shape(testing::sphere_shape(1), Vec3(0, 3, 4)).gradient, Vec3(0, 0.6, 0.8));
  const Shape b = testing::box_shape(Vec3(2, 4, 6));
  EXPECT_DOUBLE_EQ(point_to_shape(b, Vec3(4, 0, 0)).distance, 3.0);                  // face region
  EXPECT_DOUBLE_EQ(point_to_shape(b, Vec3(4, 6, 0)).distance, std::hypot(3.0, 4.0));  // edge region
  EXPECT_DOUBLE_EQ(point_to_shape(b, Vec3(0.5, 0, 0)).distance, -0.5);               // inside: nearest face
  EXPECT_EQ(point_to_shape(b, Vec3(0.5, 0, 0)).gradient, Vec3(1, 0, 0));
  Shape c;
  c.type = ShapeType::capsule;
  c.radius = 0.5;
  c.length = 2;
  EXPECT_DOUBLE_EQ(point_to_shape(c, Vec3(0, 2, 0.3)).distance, 1.5);
  EXPECT_DOUBLE_EQ(point_to_shape(c, Vec3(0, 0, 3)).distance, 1.5);  // beyond the cap
  Shape cyl;
  cyl.type = ShapeType::cylinder;
  cyl.radius = 1;
  cyl.length = 2;
  EXPECT_DOUBLE_EQ(point_to_shape(cyl, Vec3(0, 3, 0)).distance, 2.0);
  EXPECT_DOUBLE_EQ(point_to_shape(cyl, Vec3(0, 0, 3)).distance, 2.0);
  EXPECT_DOUBLE_EQ(point_to_shape(cyl, Vec3(4, 0, 5)).distance, 5.0);  // rim region
}

TEST(PointToShape, GradientIsTheDerivativeOfTheDistance) {
  std::mt19937 rng(3);
  Shape shapes[4] = {testing::box_shape(Vec3(1, 2, 3)), testing::sphere_shape(0.7), {}, {}};
  shapes[2].type = ShapeType::capsule;
  shapes[2].radius = 0.4;
  shapes[2].length = 1.2;
  shapes[3].type = ShapeType::cylinder;
  shapes[3].radius = 0.6;
  shapes[3].length = 1.0;
  for (const Shape& s : shapes)
    for (int trial = 0; trial < 50; ++trial) {
      const Vec3 x = testing::random_vec(rng, 2.0);
      const PointDistance d = point_to_shape(s, x);
      const double h = 1e-6;
      Vec3 fd;
      for (int k = 0; k < 3; ++k)
        fd[k] = (point_to_shape(s, x + h * Vec3::Unit(k)).distance - point_to_shape(s, x - h * Vec3::Unit(k)).distance) / (2 * h);
      EXPECT_LT((fd - d.gradient).norm(), 1e-5) << shape_type_name(s.type) << " at " << x.transpose();
      EXPECT_NEAR(d.gradient.norm(), 1.0, 1e-12);
    }
}

}  // namespace
}  // namespace impactsim
