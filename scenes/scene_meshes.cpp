#include "scenes/scene_meshes.hpp"

#include <filesystem>
#include <stdexcept>

#include "collision/convex_hull.hpp"
#include "collision/mesh_file.hpp"

namespace impactsim {
namespace {

namespace fs = std::filesystem;

TriangleMesh hull_of(const Field& f, const std::vector<Vec3>& points) {
  try {
    return convex_hull(points);
  } catch (const std::invalid_argument& e) {
    f.fail(e.what());
  }
}

TriangleMesh read_mesh(const Field& file, const std::string& scene_file) {
  const fs::path given(file.text());
  const fs::path path = given.is_absolute() ? given : fs::path(scene_file).parent_path() / given;
  std::error_code ec;
  if (!fs::exists(path, ec)) file.fail("no such mesh file '" + path.string() + "'");
  if (!fs::is_regular_file(path, ec)) file.fail("'" + path.string() + "' is not a regular file");
  if (static_cast<long long>(fs::file_size(path, ec)) > kMaxMeshFileBytes)
    file.fail("'" + path.string() + "' is larger than 64 MiB");
  try {
    return read_mesh_file(path.string());
  } catch (const MeshFileError& e) {
    file.fail(e.what());
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
    for (const Field& v : f.require("vertices").elements()) points.push_back(v.vec3());
    if (points.size() < 4) f.child("vertices").fail("a convex shape needs at least 4 vertices that span a solid");
    return std::make_shared<TriangleMesh>(hull_of(f.child("vertices"), points));
  }
  const Field file = f.require("file");
  TriangleMesh mesh = read_mesh(file, scene_file);
  if (f.has("hull") && f.child("hull").boolean()) return std::make_shared<TriangleMesh>(hull_of(file, mesh.vertices));
  if (const std::string problem = closed_mesh_problem(mesh); !problem.empty())
    file.fail("the mesh is not closed (" + problem + "); a solid needs a closed surface");
  if (!(mesh_volume(mesh) > 0)) file.fail("the mesh's triangles face inwards (its volume is negative)");
  if (const std::string problem = convexity_problem(mesh, 1e-9 * extent(mesh)); !problem.empty())
    file.fail("the mesh is not convex (" + problem + "); contacts need a convex solid: set `hull: true` to use its convex hull");
  return std::make_shared<TriangleMesh>(std::move(mesh));
}

}  // namespace impactsim
