// Shape-pair signed distances against references that share no code with them:
// - closed forms worked by hand (shapes over a halfspace, spheres, parallel capsules, stacked boxes);
// - for every pair of solids, the support-function form of the signed distance of convex sets,
//   sd(A, B) = max over unit u of g(u), g(u) = min over A of u.x - max over B of u.x, which holds
//   apart and overlapping alike. An answer (d, n, witnesses) is certified by it: g(n) = d shows
//   sd >= d; apart, witnesses on both surfaces d apart show sd <= d; overlapping, a brute-force
//   search over directions (20,000 spread over the sphere, refined) must find no u with g(u) > d
//   (beyond the documented slack of the overlap search).
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <array>
#include <random>

#include "collision/contact.hpp"
#include "collision/shape_pair.hpp"
#include "collision/support.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

using testing::placed;
using testing::turned;
using testing::halfspace_shape;
using testing::round_shape;
using testing::box_shape;
using testing::sphere_shape;

// h(u) of a placed solid, world frame.
double world_support(const Shape& s, const Pose& pose, const Vec3& u) {
  return u.dot(pose.p) + support_value(s, pose.R.transpose() * u);
}

double gap_along(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, const Vec3& u) {
  return -world_support(a, pa, -u) - world_support(b, pb, u);
}

// Brute force: 20,000 directions spread over the sphere, then a shrinking pattern search from the
// best 20 of them.
double reference_distance(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  const int n = 20000;
  const double golden = std::acos(-1.0) * (3 - std::sqrt(5.0));
  std::vector<std::pair<double, Vec3>> samples;
  for (int i = 0; i < n; ++i) {
    const double z = 1 - 2 * (i + 0.5) / n, r = std::sqrt(1 - z * z);
    const Vec3 u(r * std::cos(golden * i), r * std::sin(golden * i), z);
    samples.push_back({gap_along(a, pa, b, pb, u), u});
  }
  std::partial_sort(samples.begin(), samples.begin() + 20, samples.end(),
                    [](const auto& x, const auto& y) { return x.first > y.first; });
  double best = -1e300;
  for (int k = 0; k < 20; ++k) {
    Vec3 u = samples[k].second;
    double value = samples[k].first;
    // Up to 50 sweeps at each of 40 step lengths, each half the last.
    for (double step = 0.05; step > 1e-13; step /= 2) {
      for (int sweep = 0; sweep < 50; ++sweep) {
        const Vec3 e1 = u.unitOrthogonal(), e2 = u.cross(e1);
        const double before = value;
        const std::array<Vec3, 8> moves = {e1, -e1, e2, -e2, e1 + e2, e1 - e2, -e1 + e2, -e1 - e2};
        for (const Vec3& d : moves) {
          const Vec3 trial = (u + step * d).normalized();
          const double v = gap_along(a, pa, b, pb, trial);
          if (v > value) value = v, u = trial;
        }
        if (value == before) break;
      }
    }
    best = std::max(best, value);
  }
  return best;
}

// The contract of every answer: unit normal, witnesses one signed distance apart along it.
void expect_consistent(const PairDistance& d, double tol) {
  ASSERT_TRUE(d.ok) << d.error;
  EXPECT_NEAR(d.normal.norm(), 1.0, 1e-9);
  EXPECT_LT((d.point_a - d.point_b - d.distance * d.normal).norm(), tol);
}

TEST(ShapePairDistance, SolidsOverAHalfspaceMatchClosedForms) {
  const Shape floor = halfspace_shape(Vec3(0, 0, 2), 0.2);  // z <= 0.1: the normal need not be unit
  const double t = 0.3;
  struct Case {
    Shape shape;
    Mat3 R;
    double lowest;  // height of the lowest point above z = 0 for a centre at z = 1
  };
  const Shape box = box_shape(Vec3(0.4, 0.6, 1.0));
  const std::vector<Case> cases = {
      {sphere_shape(0.5), turned(Vec3::UnitX(), t), 1 - 0.5},
      {box, turned(Vec3::UnitX(), t), 1 - 0.3 * std::sin(t) - 0.5 * std::cos(t)},
      {round_shape(ShapeType::cylinder, 0.5, 1.0), turned(Vec3::UnitY(), t), 1 - 0.5 * std::cos(t) - 0.5 * std::sin(t)},
      {round_shape(ShapeType::capsule, 0.2, 1.0), turned(Vec3::UnitY(), t), 1 - 0.5 * std::cos(t) - 0.2},
      {round_shape(ShapeType::cylinder, 0.5, 1.0), turned(Vec3(1, 1, 0), std::acos(-1.0) / 2), 1 - 0.5}};
  for (const Case& c : cases) {
    for (double shift : {0.0, -0.9}) {  // apart, then sunk into the floor
      const Pose pa = placed(Vec3(0.3, -0.2, 1 + shift), c.R);
      const PairDistance d = shape_pair_distance(c.shape, pa, floor, placed(Vec3::Zero()));
      expect_consistent(d, 1e-12);
      EXPECT_NEAR(d.distance, c.lowest + shift - 0.1, 1e-12) << shape_type_name(c.shape.type);
      EXPECT_TRUE(d.normal.isApprox(Vec3::UnitZ()));
      EXPECT_EQ(d.method, DistanceMethod::exact);
      const PairDistance swapped = shape_pair_distance(floor, placed(Vec3::Zero()), c.shape, pa);
      EXPECT_DOUBLE_EQ(swapped.distance, d.distance);
      EXPECT_TRUE(swapped.normal.isApprox(-Vec3::UnitZ()));
      EXPECT_TRUE(swapped.point_a.isApprox(d.point_b));
    }
  }
}

TEST(ShapePairDistance, TwoHalfspacesAreRefused) {
  const Shape h = halfspace_shape(Vec3::UnitZ(), 0);
  const PairDistance d = shape_pair_distance(h, placed(Vec3::Zero()), h, placed(Vec3(0, 0, 1)));
  EXPECT_FALSE(d.ok);
  EXPECT_NE(d.error.find("two halfspaces"), std::string::npos);
}

TEST(ShapePairDistance, HandWorkedPairs) {
  // Spheres: centre distance less the radii.
  PairDistance d = shape_pair_distance(sphere_shape(1), placed(Vec3(3, 4, 0)), sphere_shape(2),
                                       placed(Vec3::Zero()));
  expect_consistent(d, 1e-12);
  EXPECT_NEAR(d.distance, 2.0, 1e-12);
  EXPECT_TRUE(d.normal.isApprox(Vec3(0.6, 0.8, 0)));
  // Parallel capsules side by side, then crossing at right angles 0.1 m deep.
  const Shape cap = round_shape(ShapeType::capsule, 0.25, 2.0);
  d = shape_pair_distance(cap, placed(Vec3(1, 0, 0.5)), cap, placed(Vec3::Zero()));
  expect_consistent(d, 1e-12);
  EXPECT_NEAR(d.distance, 0.5, 1e-12);
  d = shape_pair_distance(cap, placed(Vec3(0, 0, 0.4), turned(Vec3::UnitX(), std::acos(-1.0) / 2)), cap,
                          placed(Vec3::Zero(), turned(Vec3::UnitY(), std::acos(-1.0) / 2)));
  expect_consistent(d, 1e-12);
  EXPECT_NEAR(d.distance, -0.1, 1e-12);
  EXPECT_NEAR(std::abs(d.normal.z()), 1.0, 1e-12);
  // A box resting 1 cm above another, shifted and turned about the vertical, then 2 cm into it.
  const Shape top = box_shape(Vec3(1, 1, 0.5)), bottom = box_shape(Vec3(2, 2, 1));
  for (double z : {0.76, 0.73}) {
    d = shape_pair_distance(top, placed(Vec3(0.3, 0.2, z), turned(Vec3::UnitZ(), 0.4)), bottom, placed(Vec3::Zero()));
    expect_consistent(d, 1e-12);
    EXPECT_NEAR(d.distance, z - 0.75, 1e-12);
    EXPECT_TRUE(d.normal.isApprox(Vec3::UnitZ(), 1e-12));
  }
}

// Every pair of solids, 40 random placements each, half apart and half overlapping.
TEST(ShapePairDistance, EveryPairOfSolidsIsCertifiedByTheSupportFunction) {
  const std::vector<Shape> solids = {box_shape(Vec3(0.6, 1.0, 0.4)), sphere_shape(0.45),
                                     round_shape(ShapeType::capsule, 0.3, 0.8),
                                     round_shape(ShapeType::cylinder, 0.4, 0.7),
                                     round_shape(ShapeType::cone, 0.45, 0.9)};
  std::mt19937 rng(12);
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> unit(0, 1);
  int searched = 0;
  for (const Shape& a : solids)
    for (const Shape& b : solids) {
      for (int trial = 0; trial < 40; ++trial) {
        const Pose pb = placed(Vec3::Zero(), turned(Vec3(g(rng), g(rng), g(rng)), 3 * unit(rng)));
        const Vec3 dir = Vec3(g(rng), g(rng), g(rng)).normalized();
        const double reach = trial % 2 ? 0.5 + 0.5 * unit(rng) : 1.3 + unit(rng);  // overlapping, apart
        const Pose pa = placed(reach * dir, turned(Vec3(g(rng), g(rng), g(rng)), 3 * unit(rng)));
        const double ref = reference_distance(a, pa, b, pb);
        const PairDistance d = shape_pair_distance(a, pa, b, pb);
        const std::string what = std::string(shape_type_name(a.type)) + "-" + std::string(shape_type_name(b.type)) +
                                 " trial " + std::to_string(trial) + " distance " + std::to_string(d.distance);
        // FCL's GJK stops at its distance tolerance; the overlap search at its last step.
        const double tol = d.method == DistanceMethod::exact ? 1e-9 : 1e-7;
        expect_consistent(d, tol);
        EXPECT_NEAR(gap_along(a, pa, b, pb, d.normal), d.distance, tol) << what;
        // The overlap search stalls on the ridges of g a little short of the least overlap: it may
        // report up to 0.1 % too deep (never too shallow, as the line above checks).
        const double search_slack = d.method == DistanceMethod::overlap_search ? 1e-3 * std::abs(ref) : 0.0;
        EXPECT_GE(d.distance, ref - tol - search_slack) << what;
        if (d.distance > 0) {
          EXPECT_NEAR(point_to_shape(a, pa.R.transpose() * (d.point_a - pa.p)).distance, 0.0, tol) << what;
          EXPECT_NEAR(point_to_shape(b, pb.R.transpose() * (d.point_b - pb.p)).distance, 0.0, tol) << what;
          EXPECT_NEAR((d.point_a - d.point_b).norm(), d.distance, tol) << what;
        }
        if (d.method == DistanceMethod::overlap_search) ++searched;
        // The brute-force search itself comes close from below.
        EXPECT_LT(d.distance - ref, 1e-3) << what;
      }
    }
  EXPECT_GT(searched, 50);  // the overlap search was exercised, not only the closed forms
}

TEST(ClosestPointsOfSegments, ParallelCrossingAndDegenerate) {
  Vec3 cp, cq;
  closest_points_of_segments(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 1, 0), Vec3(3, 1, 0), cp, cq);
  EXPECT_TRUE(cp.isApprox(Vec3(1, 0, 0)) && cq.isApprox(Vec3(2, 1, 0)));
  closest_points_of_segments(Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0, -1, 1), Vec3(0, 1, 1), cp, cq);
  EXPECT_TRUE(cp.isApprox(Vec3(0, 0, 0)) && cq.isApprox(Vec3(0, 0, 1)));
  closest_points_of_segments(Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(0, 1, 1), Vec3(0, 1, 1), cp, cq);
  EXPECT_TRUE(cp.isZero() && cq.isApprox(Vec3(0, 1, 1)));
}

}  // namespace
}  // namespace impactsim
