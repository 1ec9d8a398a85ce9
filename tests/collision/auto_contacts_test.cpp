// Automatic contacts between two shapes: which features each pair gets, their names, and that the
// contact set sees the pair's true signed distance: the smallest phi of its contacts is the
// shape-pair distance for every pair type whose features cover all ways to touch, and never below it
// for box on box (vertex-face contacts only).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "collision/auto_contacts.hpp"
#include "collision/shape_pair.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

using namespace testing;

Geometry on_body(const std::string& name, int body, const Shape& s) { return {name, body, s}; }

std::vector<std::string> names(const std::vector<ContactDef>& contacts) {
  std::vector<std::string> out;
  for (const ContactDef& c : contacts) out.push_back(c.name);
  return out;
}

// The smallest phi over the pair's contacts with body 0 at pose (R0, p0) and body 1 at (R1, p1).
double smallest_phi(const std::vector<Geometry>& g, const std::vector<ContactDef>& contacts, const std::vector<Mat3>& R,
                    const std::vector<Vec3>& p) {
  const ContactModel model(g, contacts, false);
  double phi = 1e300;
  for (int i = 0; i < model.size(); ++i) phi = std::min(phi, model.frame(R, p, i).phi);
  return phi;
}

TEST(AutoContacts, ABoxOnAHalfspaceHasItsCornersNamedBySign) {
  const std::vector<Geometry> g = {on_body("ground", -1, halfspace_shape(Vec3::UnitZ(), 0)),
                                   on_body("crate", 0, box_shape(Vec3(1, 2, 3)))};
  // Either order: the halfspace is always the second solid.
  for (auto [g1, g2] : {std::pair{0, 1}, std::pair{1, 0}}) {
    const std::vector<ContactDef> c = pair_contacts(g, g1, g2, false);
    ASSERT_EQ(c.size(), 8u);
    EXPECT_EQ(c[0].name, "crate.-x-y-z@ground");
    EXPECT_EQ(c[7].name, "crate.+x+y+z@ground");
    EXPECT_EQ(c[7].point, Vec3(0.5, 1, 1.5));
    for (const ContactDef& k : c) {
      EXPECT_EQ(k.body_a, 0);
      EXPECT_EQ(k.geometry_b, 0);
      EXPECT_EQ(k.geometry_a, -1);
    }
  }
  const std::vector<ContactDef> planar = pair_contacts(g, 1, 0, true);
  EXPECT_EQ(names(planar), (std::vector<std::string>{"crate.-x-y@ground", "crate.+x-y@ground", "crate.-x+y@ground",
                                                     "crate.+x+y@ground"}));
}

TEST(AutoContacts, EachPairTypeGetsItsFeatures) {
  const std::vector<Geometry> g = {
      on_body("ground", -1, halfspace_shape(Vec3::UnitZ(), 0)), on_body("ball", 0, sphere_shape(0.3)),
      on_body("crate", 1, box_shape(Vec3(1, 1, 1))),          on_body("pill", 2, round_shape(ShapeType::capsule, 0.1, 1)),
      on_body("coin", 3, round_shape(ShapeType::cylinder, 0.5, 0.1)), on_body("brick", 4, box_shape(Vec3(2, 1, 1)))};
  // A sphere holds the feature against anything: its centre with its radius.
  const std::vector<ContactDef> ball_crate = pair_contacts(g, 2, 1, false);
  ASSERT_EQ(ball_crate.size(), 1u);
  EXPECT_EQ(ball_crate[0].name, "ball@crate");
  EXPECT_EQ(ball_crate[0].radius, 0.3);
  EXPECT_EQ(ball_crate[0].geometry_b, 2);
  // A capsule on the ground: its two end spheres.
  EXPECT_EQ(names(pair_contacts(g, 3, 0, false)), (std::vector<std::string>{"pill.0@ground", "pill.1@ground"}));
  // A 3-D cylinder on the ground: one shape-pair contact (its rim's lowest point) and four points
  // on each rim, from the shape's +x axis, which hold it flat; a capsule against a box: one
  // shape-pair contact.
  const std::vector<ContactDef> coin = pair_contacts(g, 4, 0, false);
  EXPECT_EQ(names(coin), (std::vector<std::string>{"coin@ground", "coin.rim+z0@ground", "coin.rim+z1@ground",
                                                   "coin.rim+z2@ground", "coin.rim+z3@ground", "coin.rim-z0@ground",
                                                   "coin.rim-z1@ground", "coin.rim-z2@ground", "coin.rim-z3@ground"}));
  EXPECT_EQ(coin[0].geometry_a, 4);
  for (size_t k = 1; k < coin.size(); ++k) {
    EXPECT_EQ(coin[k].geometry_a, -1);
    EXPECT_EQ(coin[k].radius, 0.0);
    EXPECT_NEAR(coin[k].point.head<2>().norm(), 0.5, 1e-15);
    EXPECT_NEAR(std::abs(coin[k].point.z()), 0.05, 1e-15);
  }
  EXPECT_NEAR((coin[2].point - Vec3(0, 0.5, 0.05)).norm(), 0.0, 1e-15);
  EXPECT_EQ(names(pair_contacts(g, 3, 2, false)), std::vector<std::string>{"pill@crate"});
  // A planar disk is a point feature with its radius.
  EXPECT_EQ(pair_contacts(g, 4, 0, true)[0].geometry_a, -1);
  // Box on box: each box's corners against the other.
  const std::vector<ContactDef> boxes = pair_contacts(g, 2, 5, false);
  ASSERT_EQ(boxes.size(), 16u);
  EXPECT_EQ(boxes[0].name, "crate.-x-y-z@brick");
  EXPECT_EQ(boxes[8].name, "brick.-x-y-z@crate");
  EXPECT_EQ(boxes[8].body_a, 4);
  EXPECT_EQ(boxes[8].geometry_b, 2);
}

TEST(AutoContacts, RefusesTwoHalfspacesAndShapesOfOneBody) {
  const std::vector<Geometry> g = {on_body("ground", -1, halfspace_shape(Vec3::UnitZ(), 0)),
                                   on_body("wall", -1, halfspace_shape(Vec3::UnitX(), 0)),
                                   on_body("a", 0, sphere_shape(1)), on_body("b", 0, sphere_shape(1))};
  EXPECT_THROW(pair_contacts(g, 0, 1, false), std::invalid_argument);
  EXPECT_THROW(pair_contacts(g, 2, 3, false), std::invalid_argument);
}

// Random placements of every pair type: the contacts' smallest phi is the pair's signed distance
// (exact forms and FCL alike), and for box on box never below it.
TEST(AutoContacts, SmallestPhiIsThePairDistance) {
  std::mt19937 rng(7);
  const std::vector<Shape> solids = {sphere_shape(0.3), box_shape(Vec3(0.8, 0.5, 0.3)),
                                     round_shape(ShapeType::capsule, 0.2, 0.6),
                                     round_shape(ShapeType::cylinder, 0.4, 0.2)};
  int box_box_equal = 0;
  for (size_t i = 0; i < solids.size(); ++i)
    for (size_t j = 0; j < solids.size(); ++j) {
      for (int trial = 0; trial < 30; ++trial) {
        const std::vector<Geometry> g = {on_body("a", 0, solids[i]), on_body("b", 1, solids[j]),
                                         on_body("ground", -1, halfspace_shape(Vec3::UnitZ(), 0))};
        const std::vector<Mat3> R = {random_rotation(rng), random_rotation(rng)};
        const std::vector<Vec3> p = {random_vec(rng, 1.0), random_vec(rng, 1.0)};
        const std::vector<ContactDef> c = pair_contacts(g, 0, 1, false);
        const PairDistance d = shape_pair_distance(g[0].shape, geometry_pose(g[0], R, p), g[1].shape, geometry_pose(g[1], R, p));
        ASSERT_TRUE(d.ok);
        const double phi = smallest_phi(g, c, R, p);
        const bool boxes = solids[i].type == ShapeType::box && solids[j].type == ShapeType::box;
        // FCL's GJK and the overlap search answer to about 1e-6 m; the exact forms to rounding.
        const double tol = d.method == DistanceMethod::exact ? 1e-12 : 2e-3 * std::max(1.0, std::abs(d.distance));
        if (boxes) {
          EXPECT_GE(phi, d.distance - 1e-12) << i << " " << j << " trial " << trial;
          box_box_equal += std::abs(phi - d.distance) < 1e-12;
        } else {
          EXPECT_NEAR(phi, d.distance, tol) << i << " " << j << " trial " << trial;
        }
        // Each solid against the ground.
        const std::vector<ContactDef> on_ground = pair_contacts(g, 0, 2, false);
        const PairDistance dg = shape_pair_distance(g[0].shape, geometry_pose(g[0], R, p), g[2].shape, geometry_pose(g[2], R, p));
        EXPECT_NEAR(smallest_phi(g, on_ground, R, p), dg.distance, 1e-12) << i << " on the ground";
      }
    }
  // Most random box pairs are closest at a corner; the rest at crossing edges.
  EXPECT_GT(box_box_equal, 15);
}

}  // namespace
}  // namespace impactsim
