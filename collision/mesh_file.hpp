#pragma once
// Triangle meshes from OBJ and STL files, read by assimp. Polygons are triangulated, lines and
// points dropped, and vertices at the same position welded (STL repeats each vertex per triangle),
// so a closed surface comes back closed (collision/mesh.hpp). Units are the file's numbers, taken
// as metres; every mesh of the file is taken, in the file's own coordinates. Debian's assimp holds
// coordinates as float, so they come back rounded to about 1e-7 relative.
#include <stdexcept>
#include <string>

#include "collision/mesh.hpp"

namespace impactsim {

// Throws MeshFileError naming the path and the reason: missing or unreadable, a format assimp
// cannot read, no triangles, a coordinate that is not a finite number.
struct MeshFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

TriangleMesh read_mesh_file(const std::string& path);

}  // namespace impactsim
