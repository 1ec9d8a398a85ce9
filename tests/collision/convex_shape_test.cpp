// The convex polyhedron shape (ShapeType::convex) in every collision query, against the box it
// equals when its hull is a box's eight corners: volume and mass properties, support points, point
// distance, distances to halfspaces and to other solids (exact and FCL's Convex), and the automatic
// contacts it makes.
#include <gtest/gtest.h>

#include <random>

#include "collision/auto_contacts.hpp"
#include "collision/convex_hull.hpp"
#include "collision/mesh.hpp"
#include "collision/shape_pair.hpp"
#include "collision/support.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

using namespace testing;

const Vec3 kSize(0.4, 0.3, 0.2);

Shape box_as_convex() {
  std::vector<Vec3> corners;
  for (const BoxCorner& k : box_corners(box_shape(kSize), false)) corners.push_back(k.point);
  Shape s;
  s.type = ShapeType::convex;
  s.hull = std::make_shared<TriangleMesh>(convex_hull(corners));
  return s;
}

TEST(ConvexShape, MassPropertiesAreTheBoxs) {
  Shape box = box_shape(kSize), hull = box_as_convex();
  for (Shape* s : {&box, &hull}) {
    s->position = Vec3(0.1, -0.2, 0.3);
    s->rotation = turned(Vec3(1, 2, 3), 0.7);
  }
  EXPECT_NEAR(shape_volume(hull), shape_volume(box), 1e-15);
  const MassProperties a = shape_mass_properties(box, 500), b = shape_mass_properties(hull, 500);
  EXPECT_NEAR(a.mass, b.mass, 1e-12);
  EXPECT_LT((a.com - b.com).norm(), 1e-14);
  EXPECT_LT((a.inertia - b.inertia).norm(), 1e-14);
}

TEST(ConvexShape, PointDistanceAndSupportAreTheBoxs) {
  const Shape box = box_shape(kSize), hull = box_as_convex();
  std::mt19937 rng(3);
  for (int i = 0; i < 2000; ++i) {
    const Vec3 x = random_vec(rng, 0.5);
    const PointDistance a = point_to_shape(box, x), b = point_to_shape(hull, x);
    ASSERT_NEAR(a.distance, b.distance, 1e-14) << x.transpose();
    EXPECT_LT((a.gradient - b.gradient).norm(), 1e-9) << x.transpose();  // (x - nearest) / distance: rounding grows near the surface
    const Vec3 u = random_vec(rng);
    EXPECT_LT((support_point(box, u) - support_point(hull, u)).norm(), 1e-15);
  }
}

TEST(ConvexShape, PairDistancesAreTheBoxs) {
  const Shape box = box_shape(kSize), hull = box_as_convex();
  const Shape ground = halfspace_shape(Vec3::UnitZ(), 0), ball = sphere_shape(0.1);
  const Shape can = round_shape(ShapeType::cylinder, 0.1, 0.3), other = box_shape(Vec3(0.2, 0.2, 0.2));
  std::mt19937 rng(5);
  for (int i = 0; i < 40; ++i) {
    const Pose pa = placed(random_vec(rng, 0.3), random_rotation(rng));
    const Pose pb = placed(random_vec(rng, 0.6) + Vec3(0, 0, 0.5), random_rotation(rng));
    // Halfspace and sphere: exact for both.
    EXPECT_NEAR(shape_pair_distance(hull, pa, ground, placed(Vec3::Zero())).distance,
                shape_pair_distance(box, pa, ground, placed(Vec3::Zero())).distance, 1e-14);
    EXPECT_NEAR(shape_pair_distance(hull, pa, ball, pb).distance, shape_pair_distance(box, pa, ball, pb).distance, 1e-14);
    // A box and a cylinder: FCL's GJK on FCL's Convex (or the overlap search), against the box's
    // exact box-box form and FCL's own box.
    const PairDistance exact = shape_pair_distance(box, pa, other, pb);
    const PairDistance convex = shape_pair_distance(hull, pa, other, pb);
    EXPECT_NEAR(convex.distance, exact.distance, 1e-6 + 1e-3 * std::max(0.0, -exact.distance)) << "trial " << i;
    EXPECT_NE(convex.method, DistanceMethod::exact);
    const PairDistance can_box = shape_pair_distance(box, pa, can, pb);
    EXPECT_NEAR(shape_pair_distance(hull, pa, can, pb).distance, can_box.distance,
                1e-6 + 2e-3 * std::max(0.0, -can_box.distance)) << "trial " << i;
  }
}

TEST(ConvexShape, OnAHalfspaceItsVerticesAreTheContacts) {
  const std::vector<Geometry> g = {{"ground", -1, halfspace_shape(Vec3::UnitZ(), 0)}, {"gem", 0, box_as_convex()},
                                   {"ball", 1, sphere_shape(0.1)}, {"brick", 2, box_shape(kSize)}};
  const std::vector<ContactDef> c = pair_contacts(g, 1, 0, false);
  ASSERT_EQ(c.size(), 8u);
  EXPECT_EQ(c[0].name, "gem.v0@ground");
  EXPECT_EQ(c[0].point, g[1].shape.hull->vertices[0]);
  EXPECT_EQ(pair_contacts(g, 1, 2, false)[0].name, "ball@gem");
  const std::vector<ContactDef> brick = pair_contacts(g, 1, 3, false);
  ASSERT_EQ(brick.size(), 1u);
  EXPECT_EQ(brick[0].geometry_a, 1);
}

}  // namespace
}  // namespace impactsim
