// Contact manifolds at touching, against hand-counted features: a box flat on a halfspace or a box
// has its four corners, a box on another's edge two points, two squares turned 45 degrees the
// eight corners of their octagon, and every point's gap and witnesses agree with the pair's normal.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include "collision/contact.hpp"
#include "collision/manifold.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

using testing::placed;
using testing::turned;
using testing::halfspace_shape;
using testing::box_shape;
using testing::sphere_shape;

const double kPi = std::acos(-1.0);

std::vector<std::string> features(const Manifold& m) {
  std::vector<std::string> out;
  for (const ManifoldPoint& p : m.points) out.push_back(p.feature);
  std::sort(out.begin(), out.end());
  return out;
}

// Every point: witnesses one gap apart along the normal, point_a on A's surface, point_b on B's.
void expect_points_on_surfaces(const Manifold& m, const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  for (const ManifoldPoint& p : m.points) {
    EXPECT_LT((p.point_a - p.point_b - p.distance * m.normal).norm(), 1e-9) << p.feature;
    EXPECT_NEAR(point_to_shape(a, pa.R.transpose() * (p.point_a - pa.p)).distance, 0.0, 1e-9) << p.feature;
    if (b.type != ShapeType::halfspace) {
      EXPECT_NEAR(point_to_shape(b, pb.R.transpose() * (p.point_b - pb.p)).distance, 0.0, 1e-9) << p.feature;
    }
  }
}

TEST(ContactManifold, BoxOnAHalfspaceFlatOnAnEdgeAndOnACorner) {
  const Shape box = box_shape(Vec3(1, 0.6, 0.4)), floor = halfspace_shape(Vec3::UnitZ(), 0);
  Pose pa = placed(Vec3(0.2, 0.1, 0.2 + 1e-5));  // flat, 10 um up
  Manifold m = contact_manifold(box, pa, floor, placed(Vec3::Zero()), 1e-4);
  EXPECT_EQ(features(m), (std::vector<std::string>{"v0|surface", "v1|surface", "v2|surface", "v3|surface"}));
  for (const ManifoldPoint& p : m.points) EXPECT_NEAR(p.distance, 1e-5, 1e-12);
  expect_points_on_surfaces(m, box, pa, floor, placed(Vec3::Zero()));
  // On the edge along x (corners 0 and 1) after a turn of 30 degrees about x.
  pa = placed(Vec3(0, 0, 0.3 * std::sin(kPi / 6) + 0.2 * std::cos(kPi / 6)), turned(Vec3::UnitX(), kPi / 6));
  m = contact_manifold(box, pa, floor, placed(Vec3::Zero()), 1e-4);
  EXPECT_EQ(features(m), (std::vector<std::string>{"v0|surface", "v1|surface"}));
  // On one corner; and no manifold while 1 mm above with a 0.1 mm tolerance.
  pa.R = turned(Vec3(1, 1, 0), 0.5) * turned(Vec3::UnitX(), kPi / 6);
  pa.p.z() -= shape_pair_distance(box, pa, floor, placed(Vec3::Zero())).distance;
  EXPECT_EQ(contact_manifold(box, pa, floor, placed(Vec3::Zero()), 1e-4).points.size(), 1u);
  pa.p.z() += 1e-3;
  EXPECT_TRUE(contact_manifold(box, pa, floor, placed(Vec3::Zero()), 1e-4).points.empty());
  // The halfspace as A: the same corners, names mirrored.
  pa = placed(Vec3(0.2, 0.1, 0.2));
  m = contact_manifold(floor, placed(Vec3::Zero()), box, pa, 1e-6);
  EXPECT_EQ(features(m), (std::vector<std::string>{"surface|v0", "surface|v1", "surface|v2", "surface|v3"}));
  EXPECT_TRUE(m.normal.isApprox(-Vec3::UnitZ()));
}

TEST(ContactManifold, BoxOnBoxAtRestHasFourCorners) {
  const Shape top = box_shape(Vec3(0.5, 0.5, 0.2)), bottom = box_shape(Vec3(2, 2, 1));
  const Pose pa = placed(Vec3(0.3, -0.2, 0.6), turned(Vec3::UnitZ(), 0.3)), pb = placed(Vec3::Zero());
  const Manifold m = contact_manifold(top, pa, bottom, pb, 1e-6);
  EXPECT_EQ(features(m), (std::vector<std::string>{"v0|f+z", "v1|f+z", "v2|f+z", "v3|f+z"}));
  EXPECT_TRUE(m.normal.isApprox(Vec3::UnitZ()));
  expect_points_on_surfaces(m, top, pa, bottom, pb);
  // The big box on the small one: the small one's four top corners, on the big one's bottom face.
  const Pose below = placed(Vec3::Zero(), turned(Vec3::UnitZ(), 0.3));
  const Manifold flipped = contact_manifold(bottom, placed(Vec3(0, 0, 0.6)), top, below, 1e-6);
  EXPECT_EQ(features(flipped), (std::vector<std::string>{"f-z|v4", "f-z|v5", "f-z|v6", "f-z|v7"}));
}

TEST(ContactManifold, BoxOnAnotherBoxsEdgeHasTwoPoints) {
  // The lower box turned 45 degrees about x: its top is the edge between corners 6 and 7 (+y, +z
  // turned up), 1 m long; the upper box, 0.6 m wide in x, rests flat on it.
  const Shape upper = box_shape(Vec3(0.6, 0.6, 0.2)), lower = box_shape(Vec3(1, 1, 1));
  const Pose pb = placed(Vec3::Zero(), turned(Vec3::UnitX(), kPi / 4));
  const Pose pa = placed(Vec3(0.1, 0.05, std::sqrt(0.5) + 0.1));
  const Manifold m = contact_manifold(upper, pa, lower, pb, 1e-6);
  ASSERT_EQ(m.points.size(), 2u);
  for (const ManifoldPoint& p : m.points) {
    EXPECT_NEAR(p.distance, 0.0, 1e-12);
    EXPECT_NEAR(std::abs(p.point_a.x() - 0.1), 0.3, 1e-12);  // the upper face's two sides cut the edge
  }
  expect_points_on_surfaces(m, upper, pa, lower, pb);
  // The points are the lower box's top edge against the upper box's bottom-face sides.
  for (const std::string& f : features(m)) EXPECT_NE(f.find("|e"), std::string::npos) << f;
}

TEST(ContactManifold, SquaresTurned45DegreesMeetInAnOctagon) {
  const Shape plate = box_shape(Vec3(1, 1, 0.1));
  const Pose pa = placed(Vec3(0, 0, 0.1), turned(Vec3::UnitZ(), kPi / 4)), pb = placed(Vec3::Zero());
  const Manifold m = contact_manifold(plate, pa, plate, pb, 1e-6);
  ASSERT_EQ(m.points.size(), 8u);
  for (const ManifoldPoint& p : m.points) {
    EXPECT_EQ(p.feature.front(), 'e') << p.feature;  // edge crossings only
    EXPECT_NEAR(p.point_b.head<2>().cwiseAbs().maxCoeff(), 0.5, 1e-12);  // on the lower square's outline
  }
  expect_points_on_surfaces(m, plate, pa, plate, pb);
}

TEST(ContactManifold, CurvedShapesTouchAtOnePoint) {
  const Shape ball = sphere_shape(0.5), box = box_shape(Vec3(2, 2, 1));
  const Pose pa = placed(Vec3(0.3, 0.2, 1.0)), pb = placed(Vec3::Zero());
  const Manifold m = contact_manifold(ball, pa, box, pb, 1e-6);
  ASSERT_EQ(m.points.size(), 1u);
  EXPECT_EQ(m.points[0].feature, "surface|f+z");
  expect_points_on_surfaces(m, ball, pa, box, pb);
}

}  // namespace
}  // namespace impactsim
