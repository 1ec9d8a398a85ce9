#include "scenes/scene_meshes.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "collision/convex_hull.hpp"
#include "collision/mesh_file.hpp"
#include "scenes/sha256.hpp"

namespace impactsim {
namespace {

TriangleMesh hull_of(const Field& f, const std::vector<Vec3>& points) {
  try {
    return convex_hull(points);
  } catch (const std::invalid_argument& e) {
    f.fail(e.what());
  }
}

TriangleMesh read_mesh(const std::string& path) {
  if (const std::string problem = file_problem(path, "mesh", kMaxMeshFileBytes); !problem.empty())
    throw std::invalid_argument(problem);
  try {
    return read_mesh_file(path);
  } catch (const MeshFileError& e) {
    throw std::invalid_argument(e.what());
  }
}

// The scale of a mesh [m], for tolerances relative to its size.
double extent(const TriangleMesh& m) {
  Vec3 lo = m.vertices.front(), hi = lo;
  for (const Vec3& v : m.vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
  return (hi - lo).norm();
}

}  // namespace

std::shared_ptr<const TriangleMesh> read_hull(const Field& f, const std::string& type, const std::string& scene_file) {
  if (type == "convex") {
    std::vector<Vec3> points;
    for (const Field& v : f.require("vertices").elements()) points.push_back(v.position());
    if (points.size() < 4) f.child("vertices").fail("a convex shape needs at least 4 vertices that span a solid");
    return std::make_shared<TriangleMesh>(hull_of(f.child("vertices"), points));
  }
  const Field file = f.require("file");
  const bool hull = f.has("hull") && f.child("hull").boolean();
  try {
    return mesh_solid(path_beside(file.text(), scene_file), Vec3::Ones(), hull, "set `hull: true`");
  } catch (const std::invalid_argument& e) {
    file.fail(e.what());
  }
}

std::shared_ptr<const TriangleMesh> mesh_solid(const std::string& path, const Vec3& scale, bool hull,
                                               const std::string& hull_hint) {
  TriangleMesh mesh = read_mesh(path);
  for (Vec3& v : mesh.vertices) v = v.cwiseProduct(scale);
  if (hull) return std::make_shared<TriangleMesh>(convex_hull(mesh.vertices));
  if (const std::string problem = closed_mesh_problem(mesh); !problem.empty())
    throw std::invalid_argument("the mesh is not closed (" + problem + "); a solid needs a closed surface");
  if (!(mesh_volume(mesh) > 0)) throw std::invalid_argument("the mesh's triangles face inwards (its volume is negative)");
  if (const std::string problem = convexity_problem(mesh, 1e-9 * extent(mesh)); !problem.empty())
    throw std::invalid_argument("the mesh is not convex (" + problem + "); contacts need a convex solid: " + hull_hint +
                                " to use its convex hull");
  return std::make_shared<TriangleMesh>(std::move(mesh));
}

std::vector<MeshSource> mesh_sources(const std::vector<Geometry>& geometries) {
  std::vector<MeshSource> out;
  for (const Geometry& g : geometries) {
    const std::string& path = g.shape.file;
    if (path.empty() || std::any_of(out.begin(), out.end(), [&](const MeshSource& m) { return m.path == path; })) continue;
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in && !in.eof()) throw SceneError(path, 0, 0, "", "cannot read the mesh file again to record its SHA-256");
    out.push_back({path, sha256_hex(bytes)});
  }
  return out;
}

}  // namespace impactsim
