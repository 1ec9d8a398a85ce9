// Volumes and inertias against closed forms and against brute-force integration over a grid.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>

#include <Eigen/Geometry>

#include "collision/shape.hpp"

namespace impactsim {
namespace {

constexpr double pi = std::numbers::pi;

// Mass properties of the solid {x : inside(x)} in the box [-L, L]^3 by midpoint quadrature.
MassProperties integrate_solid(const std::function<bool(const Vec3&)>& inside, double L, int n) {
  const double h = 2 * L / n, dv = h * h * h;
  MassProperties p;
  Mat3 second = Mat3::Zero();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const Vec3 x(-L + (i + 0.5) * h, -L + (j + 0.5) * h, -L + (k + 0.5) * h);
        if (!inside(x)) continue;
        p.mass += dv;
        p.com += dv * x;
        second += dv * (x.squaredNorm() * Mat3::Identity() - x * x.transpose());
      }
  p.com /= p.mass;
  p.inertia = second - p.mass * (p.com.squaredNorm() * Mat3::Identity() - p.com * p.com.transpose());
  return p;
}

TEST(Shape, BoxAndSphereClosedForms) {
  Shape box;
  box.type = ShapeType::box;
  box.size = Vec3(1, 2, 3);
  const MassProperties b = shape_mass_properties(box, 10.0);
  EXPECT_DOUBLE_EQ(b.mass, 60.0);
  EXPECT_NEAR(b.inertia(0, 0), 60.0 * (4 + 9) / 12, 1e-12);
  EXPECT_NEAR(b.inertia(1, 1), 60.0 * (1 + 9) / 12, 1e-12);
  EXPECT_NEAR(b.inertia(2, 2), 60.0 * (1 + 4) / 12, 1e-12);
  Shape sphere;
  sphere.type = ShapeType::sphere;
  sphere.radius = 0.5;
  const MassProperties s = shape_mass_properties(sphere, 1.0);
  EXPECT_NEAR(s.mass, 4.0 / 3 * pi / 8, 1e-14);
  EXPECT_NEAR(s.inertia(1, 1), 0.4 * s.mass * 0.25, 1e-14);
}

TEST(Shape, CapsuleMatchesNumericalIntegration) {
  Shape c;
  c.type = ShapeType::capsule;
  c.radius = 0.3;
  c.length = 0.8;
  const MassProperties exact = shape_mass_properties(c, 1.0);
  const MassProperties numeric = integrate_solid(
      [&](const Vec3& x) {
        const double z = std::clamp(x.z(), -c.length / 2, c.length / 2);
        return (x - Vec3(0, 0, z)).norm() <= c.radius;
      },
      0.7, 160);
  EXPECT_NEAR(exact.mass, numeric.mass, 2e-3 * exact.mass);
  EXPECT_NEAR(exact.inertia(0, 0), numeric.inertia(0, 0), 5e-3 * exact.inertia(0, 0));
  EXPECT_NEAR(exact.inertia(2, 2), numeric.inertia(2, 2), 5e-3 * exact.inertia(2, 2));
}

TEST(Shape, CylinderMatchesNumericalIntegration) {
  Shape c;
  c.type = ShapeType::cylinder;
  c.radius = 0.4;
  c.length = 1.0;
  const MassProperties exact = shape_mass_properties(c, 1.0);
  const MassProperties numeric = integrate_solid(
      [&](const Vec3& x) { return std::hypot(x.x(), x.y()) <= c.radius && std::abs(x.z()) <= 0.5; }, 0.6, 150);
  EXPECT_NEAR(exact.mass, numeric.mass, 2e-3 * exact.mass);
  EXPECT_NEAR(exact.inertia(0, 0), numeric.inertia(0, 0), 5e-3 * exact.inertia(0, 0));
  EXPECT_NEAR(exact.inertia(2, 2), numeric.inertia(2, 2), 5e-3 * exact.inertia(2, 2));
}

// FCL's cone: base radius r at z = -L/2, apex at +L/2; its centre of mass L/4 below the origin.
TEST(Shape, ConeMatchesNumericalIntegration) {
  Shape c;
  c.type = ShapeType::cone;
  c.radius = 0.4;
  c.length = 0.896;  // base and apex on the integration grid's cell faces (cells of 0.008)
  const MassProperties exact = shape_mass_properties(c, 1.0);
  const MassProperties numeric = integrate_solid(
      [&](const Vec3& x) { return std::abs(x.z()) <= 0.448 && std::hypot(x.x(), x.y()) <= c.radius * (0.448 - x.z()) / 0.896; },
      0.6, 150);
  EXPECT_NEAR(exact.mass, std::acos(-1.0) * 0.16 * 0.896 / 3, 1e-15);
  EXPECT_NEAR(exact.mass, numeric.mass, 2e-3 * exact.mass);
  EXPECT_NEAR(exact.com.z(), -0.224, 1e-15);
  EXPECT_NEAR(numeric.com.z(), -0.224, 2e-3);
  EXPECT_NEAR(exact.inertia(0, 0), numeric.inertia(0, 0), 5e-3 * exact.inertia(0, 0));
  EXPECT_NEAR(exact.inertia(2, 2), numeric.inertia(2, 2), 5e-3 * exact.inertia(2, 2));
}

TEST(Shape, CapsuleOfZeroLengthIsASphere) {
  Shape c, s;
  c.type = ShapeType::capsule;
  s.type = ShapeType::sphere;
  c.radius = s.radius = 0.7;
  EXPECT_NEAR(shape_mass_properties(c, 3.0).inertia(0, 0), shape_mass_properties(s, 3.0).inertia(0, 0), 1e-12);
  EXPECT_NEAR(shape_mass_properties(c, 3.0).inertia(2, 2), shape_mass_properties(s, 3.0).inertia(2, 2), 1e-12);
}

TEST(Shape, TwoHalfBoxesMakeOneBox) {
  Shape left, right, whole;
  left.type = right.type = whole.type = ShapeType::box;
  left.size = right.size = Vec3(1, 1, 2);
  left.position = Vec3(-0.5, 0, 0);
  right.position = Vec3(0.5, 0, 0);
  whole.size = Vec3(2, 1, 2);
  const MassProperties sum =
      combine_mass_properties({shape_mass_properties(left, 2.0), shape_mass_properties(right, 2.0)});
  const MassProperties one = shape_mass_properties(whole, 2.0);
  EXPECT_NEAR(sum.mass, one.mass, 1e-12);
  EXPECT_LT(sum.com.norm(), 1e-12);
  EXPECT_LT((sum.inertia - one.inertia).norm(), 1e-12);
}

TEST(Shape, RotatedShapeRotatesItsInertia) {
  Shape box;
  box.type = ShapeType::box;
  box.size = Vec3(1, 2, 3);
  box.rotation = Eigen::AngleAxisd(pi / 2, Vec3::UnitZ()).toRotationMatrix();  // x <-> y
  const MassProperties p = shape_mass_properties(box, 1.0);
  EXPECT_NEAR(p.inertia(0, 0), 6.0 * (1 + 9) / 12, 1e-12);
  EXPECT_NEAR(p.inertia(1, 1), 6.0 * (4 + 9) / 12, 1e-12);
}

TEST(Shape, HalfspaceHasInfiniteVolume) {
  Shape h;
  h.type = ShapeType::halfspace;
  EXPECT_TRUE(std::isinf(shape_volume(h)));
}

}  // namespace
}  // namespace impactsim
