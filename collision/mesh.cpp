#include "collision/mesh.hpp"

#include <map>
#include <utility>

#include <Eigen/Geometry>

namespace impactsim {

std::string closed_mesh_problem(const TriangleMesh& mesh) {
  if (mesh.triangles.empty()) return "the mesh has no triangles";
  // Per undirected edge: how many triangles run along it low -> high, and high -> low.
  std::map<std::pair<int, int>, std::pair<int, int>> edges;
  for (const auto& t : mesh.triangles)
    for (int i = 0; i < 3; ++i) {
      const int u = t[i], v = t[(i + 1) % 3];
      if (u == v) return "a triangle repeats vertex " + std::to_string(u);
      auto& uses = edges[{std::min(u, v), std::max(u, v)}];
      (u < v ? uses.first : uses.second) += 1;
    }
  for (const auto& [edge, uses] : edges) {
    const std::string name = "edge (" + std::to_string(edge.first) + ", " + std::to_string(edge.second) + ")";
    const int count = uses.first + uses.second;
    if (count == 1) return name + " belongs to 1 triangle: the mesh has a hole";
    if (count > 2) return name + " belongs to " + std::to_string(count) + " triangles";
    if (uses.first != 1) return name + " is run the same way by both its triangles: they face opposite sides";
  }
  return "";
}

std::string convexity_problem(const TriangleMesh& mesh, double tolerance) {
  for (std::size_t k = 0; k < mesh.triangles.size(); ++k) {
    const auto& t = mesh.triangles[k];
    const Vec3& a = mesh.vertices[t[0]];
    const Vec3 n = (mesh.vertices[t[1]] - a).cross(mesh.vertices[t[2]] - a);
    if (n.norm() == 0) continue;  // a sliver: its neighbours decide
    const Vec3 unit = n.normalized();
    for (std::size_t v = 0; v < mesh.vertices.size(); ++v)
      if (unit.dot(mesh.vertices[v] - a) > tolerance)
        return "vertex " + std::to_string(v) + " is in front of triangle " + std::to_string(k) +
               ": the mesh is not convex";
  }
  return "";
}

double mesh_volume(const TriangleMesh& mesh) {
  double six_v = 0;
  for (const auto& t : mesh.triangles)
    six_v += mesh.vertices[t[0]].dot(mesh.vertices[t[1]].cross(mesh.vertices[t[2]]));
  return six_v / 6;
}

MassProperties mesh_mass_properties(const TriangleMesh& mesh, double density) {
  // Per tetrahedron (0, a, b, c) with D = a . (b x c): volume D / 6, first moment D (a + b + c) / 24,
  // second moment (integral of x x^T) D / 120 (a a^T + b b^T + c c^T + s s^T), s = a + b + c.
  double volume = 0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  for (const auto& t : mesh.triangles) {
    const Vec3 &a = mesh.vertices[t[0]], &b = mesh.vertices[t[1]], &c = mesh.vertices[t[2]];
    const double D = a.dot(b.cross(c));
    const Vec3 s = a + b + c;
    volume += D / 6;
    first += D / 24 * s;
    second += D / 120 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  MassProperties p;
  p.mass = density * volume;
  p.com = volume != 0 ? Vec3(first / volume) : Vec3::Zero();
  const Mat3 about_com = density * (second - volume * p.com * p.com.transpose());
  p.inertia = about_com.trace() * Mat3::Identity() - about_com;
  return p;
}

}  // namespace impactsim
