// Closedness, convexity and mass properties of triangle meshes, against closed forms: a box and a
// tetrahedron, whole, holed, turned inside out and dented.
#include <gtest/gtest.h>

#include "collision/mesh.hpp"
#include "collision/shape.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

// An axis-aligned box [0, a] x [0, b] x [0, c] shifted by `at`, twelve outward triangles.
TriangleMesh box_mesh(double a, double b, double c, const Vec3& at = Vec3::Zero()) {
  TriangleMesh m;
  for (int k = 0; k < 8; ++k) m.vertices.push_back(at + Vec3(k & 1 ? a : 0, k & 2 ? b : 0, k & 4 ? c : 0));
  m.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6},   // z = 0 (down), z = c (up)
                 {0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7},   // y = 0, y = b
                 {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};  // x = 0, x = a
  return m;
}

TEST(MeshMassProperties, BoxMatchesTheClosedForm) {
  const double a = 0.4, b = 1.0, c = 2.2, density = 750;
  const Vec3 at(1, -2, 0.5);
  const MassProperties p = mesh_mass_properties(box_mesh(a, b, c, at), density);
  const MassProperties ref = shape_mass_properties(testing::box_shape(Vec3(a, b, c)), density);
  EXPECT_NEAR(p.mass, ref.mass, 1e-12 * ref.mass);
  EXPECT_TRUE(p.com.isApprox(at + Vec3(a, b, c) / 2, 1e-14));
  EXPECT_TRUE(p.inertia.isApprox(ref.inertia, 1e-12)) << p.inertia << "\n" << ref.inertia;
}

TEST(MeshMassProperties, TetrahedronMatchesTheClosedForm) {
  // The corner tetrahedron (0, e_x, e_y, e_z): volume 1/6, centroid (1/4, 1/4, 1/4); about the
  // origin, integral of x^2 = 1/60 and of x y = 1/120.
  TriangleMesh m;
  m.vertices = {Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()};
  m.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  ASSERT_EQ(closed_mesh_problem(m), "");
  const MassProperties p = mesh_mass_properties(m, 6.0);  // mass 1
  EXPECT_NEAR(p.mass, 1.0, 1e-15);
  EXPECT_TRUE(p.com.isApprox(Vec3::Constant(0.25), 1e-15));
  Mat3 second = Mat3::Constant(6.0 / 120);
  second.diagonal().setConstant(6.0 / 60);
  const Mat3 about_com = second - p.com * p.com.transpose();
  EXPECT_TRUE(p.inertia.isApprox(about_com.trace() * Mat3::Identity() - about_com, 1e-14));
  EXPECT_NEAR(mesh_volume(m), 1.0 / 6, 1e-16);
}

TEST(ClosedMeshProblem, NamesTheHoleOrTheFlippedTriangle) {
  TriangleMesh m = box_mesh(1, 1, 1);
  EXPECT_EQ(closed_mesh_problem(m), "");
  TriangleMesh holed = m;
  holed.triangles.pop_back();
  EXPECT_NE(closed_mesh_problem(holed).find("has a hole"), std::string::npos) << closed_mesh_problem(holed);
  TriangleMesh flipped = m;
  std::swap(flipped.triangles[0][1], flipped.triangles[0][2]);
  EXPECT_NE(closed_mesh_problem(flipped).find("face opposite sides"), std::string::npos);
  EXPECT_EQ(closed_mesh_problem(TriangleMesh{}), "the mesh has no triangles");
  // Inside out: closed, and the volume comes out negative.
  TriangleMesh inside_out = m;
  for (auto& t : inside_out.triangles) std::swap(t[1], t[2]);
  EXPECT_EQ(closed_mesh_problem(inside_out), "");
  EXPECT_NEAR(mesh_volume(inside_out), -1.0, 1e-15);
}

TEST(ConvexityProblem, ADentedBoxIsNotConvex) {
  TriangleMesh m = box_mesh(1, 1, 1);
  EXPECT_EQ(convexity_problem(m, 1e-12), "");
  m.vertices[7] = Vec3(0.6, 0.6, 0.6);  // the top corner pushed in past the plane of its neighbours
  EXPECT_NE(convexity_problem(m, 1e-12).find("not convex"), std::string::npos);
  EXPECT_EQ(closed_mesh_problem(m), "");
}

}  // namespace
}  // namespace impactsim
