#include "collision/mesh_file.hpp"

#include <cmath>
#include <filesystem>
#include <map>
#include <tuple>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

namespace impactsim {

TriangleMesh read_mesh_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw MeshFileError(path + ": cannot open the mesh file (does it exist and is it a regular file?)");
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(path, aiProcess_Triangulate | aiProcess_SortByPType);
  if (!scene || !scene->mRootNode)
    throw MeshFileError(path + ": cannot read the mesh (" + std::string(importer.GetErrorString()) + ")");
  TriangleMesh mesh;
  std::map<std::tuple<double, double, double>, int> welded;  // position -> vertex index
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* part = scene->mMeshes[m];
    std::vector<int> index(part->mNumVertices);
    for (unsigned v = 0; v < part->mNumVertices; ++v) {
      const aiVector3D& x = part->mVertices[v];
      const Vec3 p(x.x, x.y, x.z);
      if (!p.allFinite()) throw MeshFileError(path + ": vertex " + std::to_string(v) + " is not a finite point");
      const auto [it, added] = welded.try_emplace({p.x(), p.y(), p.z()}, static_cast<int>(mesh.vertices.size()));
      if (added) mesh.vertices.push_back(p);
      index[v] = it->second;
    }
    for (unsigned f = 0; f < part->mNumFaces; ++f) {
      const aiFace& face = part->mFaces[f];
      if (face.mNumIndices != 3) continue;  // lines and points
      mesh.triangles.push_back({index[face.mIndices[0]], index[face.mIndices[1]], index[face.mIndices[2]]});
    }
  }
  if (mesh.triangles.empty()) throw MeshFileError(path + ": the mesh has no triangles");
  return mesh;
}

}  // namespace impactsim
