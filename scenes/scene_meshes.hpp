#pragma once
// The polyhedral shapes of a scene: `convex` (the hull of listed vertices) and `mesh` (a closed,
// convex triangle mesh from an OBJ or STL file, or its hull), as the convex hull a Shape holds.
#include <memory>
#include <string>
#include <vector>

#include "collision/mesh.hpp"
#include "collision/shape.hpp"
#include "scenes/scene.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {

// The largest mesh file read [bytes]: a robot part is far smaller; more is a mistake.
constexpr std::uintmax_t kMaxMeshFileBytes = 64u << 20;

// The hull of shape entry `f` of type `type` ("convex" or "mesh"). A mesh's `file` is relative to
// the directory of `scene_file`. Located errors (SceneError): a missing, unreadable or oversized
// file, no triangles, an open or inward mesh, a non-convex mesh without `hull: true`, vertices that
// span no volume.
std::shared_ptr<const TriangleMesh> read_hull(const Field& f, const std::string& type, const std::string& scene_file);

// The solid of the mesh file at `path`, its vertices scaled by `scale` (> 0 each): its convex hull
// when `hull`, else the mesh, which must be closed, outward and convex (`hull_hint` says how to ask
// for the hull instead). Throws std::invalid_argument with the reason (no path prefix beyond the
// file's name in the reasons that concern the file).
std::shared_ptr<const TriangleMesh> mesh_solid(const std::string& path, const Vec3& scale, bool hull,
                                               const std::string& hull_hint);

// The mesh files of `geometries` (Shape::file), each once, with the SHA-256 of its bytes: a result
// depends on them as on the scene's text. Throws SceneError naming a file that can no longer be read.
std::vector<MeshSource> mesh_sources(const std::vector<Geometry>& geometries);

}  // namespace impactsim
