// FCL's signed distance through our wrapper: agreement with closed forms where FCL is reliable
// (separated convex primitives), penetration depth of spheres, and a refusal naming the reason for
// the pairs it cannot do.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "collision/contact.hpp"
#include "collision/fcl_distance.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

// FCL agrees with the exact forms where it is reliable: separated convex primitives.
TEST(FclDistance, AgreesWithClosedFormsWhenSeparated) {
  Pose a, b;
  b.p = Vec3(3, 0, 0);
  FclDistance d = fcl_signed_distance(testing::sphere_shape(1), a, testing::sphere_shape(0.5), b);
  ASSERT_TRUE(d.ok) << d.error;
  EXPECT_NEAR(d.distance, 1.5, 1e-6);
  b.p = Vec3(0, 0, 4);
  d = fcl_signed_distance(testing::box_shape(Vec3(2, 2, 2)), a, testing::sphere_shape(1), b);
  ASSERT_TRUE(d.ok) << d.error;
  EXPECT_NEAR(d.distance, 2.0, 1e-6);
  EXPECT_NEAR(d.distance, point_to_shape(testing::box_shape(Vec3(2, 2, 2)), b.p).distance - 1.0, 1e-6);
  b.p = Vec3(2.5, 0.3, 0.1);
  b.R = Eigen::AngleAxisd(0.3, Vec3::UnitZ()).toRotationMatrix();
  d = fcl_signed_distance(testing::box_shape(Vec3(2, 2, 2)), a, testing::box_shape(Vec3(1, 1, 1)), b);
  ASSERT_TRUE(d.ok) << d.error;
  // The rotated box's nearest corner to the face x = 1.
  double nearest = 1e9;
  for (int k = 0; k < 8; ++k) {
    const Vec3 corner = b.p + b.R * Vec3(k & 1 ? 0.5 : -0.5, k & 2 ? 0.5 : -0.5, k & 4 ? 0.5 : -0.5);
    nearest = std::min(nearest, corner.x() - 1.0);
  }
  EXPECT_NEAR(d.distance, nearest, 1e-6);
}

TEST(FclDistance, PenetratingSpheresGiveTheDepth) {
  Pose a, b;
  b.p = Vec3(1.2, 0, 0);
  const FclDistance d = fcl_signed_distance(testing::sphere_shape(1), a, testing::sphere_shape(0.5), b);
  ASSERT_TRUE(d.ok) << d.error;
  EXPECT_NEAR(d.distance, -0.3, 1e-4);
}

TEST(FclDistance, HalfspacesAreRefusedWithAReason) {
  Shape h;
  h.type = ShapeType::halfspace;
  const FclDistance d = fcl_signed_distance(testing::sphere_shape(1), Pose{}, h, Pose{});
  EXPECT_FALSE(d.ok);
  EXPECT_NE(d.error.find("halfspace"), std::string::npos);
}

TEST(FclDistance, WitnessPointsLieOnTheSurfaces) {
  Pose a, b;
  b.p = Vec3(0, 3, 0);
  const FclDistance d = fcl_signed_distance(testing::sphere_shape(1), a, testing::sphere_shape(0.5), b);
  ASSERT_TRUE(d.ok) << d.error;
  EXPECT_NEAR(d.point_a.norm(), 1.0, 1e-6);
  EXPECT_NEAR((d.point_b - b.p).norm(), 0.5, 1e-6);
  EXPECT_NEAR((d.point_b - d.point_a).norm(), d.distance, 1e-6);
}

// GJK alone: the same distance as the signed query while apart, and no EPA (no depth) once the
// shapes overlap: a box sunk 0.3 m into another reports no positive distance.
TEST(FclDistance, GjkAloneMatchesWhileApartAndReportsOverlapAsNotPositive) {
  Pose a, b;
  b.p = Vec3(0.2, 0.1, 2.5);
  b.R = Eigen::AngleAxisd(0.3, Vec3(1, 1, 0).normalized()).toRotationMatrix();
  const Shape box = testing::box_shape(Vec3(1, 2, 1));
  const FclDistance apart = fcl_gjk_distance(box, a, box, b), reference = fcl_signed_distance(box, a, box, b);
  ASSERT_TRUE(apart.ok && reference.ok);
  EXPECT_GT(apart.distance, 1.0);
  EXPECT_NEAR(apart.distance, reference.distance, 1e-9);
  b.p = Vec3(0.2, 0.1, 0.7);
  const FclDistance overlapping = fcl_gjk_distance(box, a, box, b);
  ASSERT_TRUE(overlapping.ok);
  EXPECT_LE(overlapping.distance, 0.0);
}

}  // namespace
}  // namespace impactsim
