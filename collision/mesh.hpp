#pragma once
// Triangle meshes as plain data, their closedness and convexity, and the mass properties of the
// solid a closed mesh bounds.
//
// Conventions: vertices in the shape's frame [m]; each triangle lists three vertex indices counter-
// clockwise seen from outside, so (b - a) x (c - a) points out of the solid.
#include <array>
#include <string>
#include <vector>

#include "collision/shape.hpp"

namespace impactsim {

struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;
};

// "" when the mesh is closed and consistently oriented: every edge belongs to exactly two
// triangles, which run along it in opposite directions. Else the first problem found, naming the
// edge, e.g. "edge (3, 7) belongs to 1 triangle: the mesh has a hole".
std::string closed_mesh_problem(const TriangleMesh& mesh);

// "" when every vertex lies on or behind the plane of every triangle (within `tolerance` [m]),
// else the first triangle a vertex is in front of.
std::string convexity_problem(const TriangleMesh& mesh, double tolerance);

// Volume [m^3] of the solid a closed mesh bounds: negative when the triangles face inwards.
double mesh_volume(const TriangleMesh& mesh);

// Mass properties of the solid a closed, outward mesh bounds at uniform density [kg/m^3]: the sum of
// signed tetrahedra from the origin, one per triangle (the divergence theorem; Mirtich 1996).
MassProperties mesh_mass_properties(const TriangleMesh& mesh, double density);

}  // namespace impactsim
