// Polyhedral shapes in scenes: `convex` from listed vertices and `mesh` from a file (relative to the
// scene), their mass from the closed surface, and every way a mesh can be wrong as a located error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "collision/mesh.hpp"
#include "scenes/scene.hpp"
#include "scenes/sha256.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

namespace fs = std::filesystem;

// A scene in a fresh directory with the given mesh files beside it; the shape entry is `shape`.
class SceneMeshes : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("impactsim_scene_meshes_" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "parts");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  Scene load(const std::string& shape) {
    const std::string text = "bodies:\n  - name: piece\n    joint: {type: free}\n    density: 1000\n    shapes:\n      - " +
                             shape + "\n    initial: {z: 1}\nsimulation: {t_end: 1}\n";
    write("scene.yaml", text);
    return load_scene((dir_ / "scene.yaml").string());
  }
  std::string error(const std::string& shape) {
    try {
      load(shape);
    } catch (const SceneError& e) {
      return e.key() + ": " + e.message();
    }
    return "accepted";
  }
  fs::path dir_;
};

bool starts(const std::string& text, const std::string& prefix) {
  if (text.rfind(prefix, 0) == 0) return true;
  ADD_FAILURE() << "\"" << text << "\" does not start with \"" << prefix << "\"";
  return false;
}

// A unit cube's OBJ: 8 vertices, 12 triangles, outward.
const char* const kCube = R"(v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
f 1 3 2
f 1 4 3
f 5 6 7
f 5 7 8
f 1 2 6
f 1 6 5
f 2 3 7
f 2 7 6
f 3 4 8
f 3 8 7
f 4 1 5
f 4 5 8
)";

TEST_F(SceneMeshes, AMeshBesideTheSceneGivesItsMassAndHull) {
  write("parts/cube.obj", kCube);
  const Scene s = load("{name: cube, type: mesh, file: parts/cube.obj}");
  const Body& b = s.system.model.bodies[0];
  EXPECT_NEAR(b.mass, 1000.0, 1e-9);
  EXPECT_LT((b.com - Vec3(0.5, 0.5, 0.5)).norm(), 1e-12);
  const Geometry& g = s.system.contacts.geometries()[0];
  EXPECT_EQ(g.shape.type, ShapeType::convex);
  EXPECT_EQ(g.shape.hull->vertices.size(), 8u);
}

// A result depends on the mesh files as on the scene's text: each file is recorded once with the
// SHA-256 of its bytes, and changing a file changes scene_content_sha256 (which batch --resume,
// merge and sweep --resume compare) while the scene's own text hash stays.
TEST_F(SceneMeshes, MeshFilesAreRecordedWithTheirHashes) {
  write("parts/cube.obj", kCube);
  const std::string shapes =
      "{name: a, type: mesh, file: parts/cube.obj}\n      - {name: b, type: mesh, file: parts/cube.obj, position: [0, 0, 2]}";
  const Scene before = load(shapes);
  ASSERT_EQ(before.meshes.size(), 1u);
  EXPECT_EQ(before.meshes[0].path, (dir_ / "parts" / "cube.obj").string());
  EXPECT_EQ(before.meshes[0].sha256, sha256_hex(kCube));
  EXPECT_NE(scene_content_sha256(before), before.text_sha256);

  write("parts/cube.obj", std::string(kCube) + "# the same cube, another file\n");
  const Scene after = load(shapes);
  EXPECT_EQ(after.text_sha256, before.text_sha256);
  EXPECT_NE(after.meshes[0].sha256, before.meshes[0].sha256);
  EXPECT_NE(scene_content_sha256(after), scene_content_sha256(before));

  const Scene primitive = load("{type: box, size: [1, 1, 1]}");
  EXPECT_TRUE(primitive.meshes.empty());
  EXPECT_EQ(scene_content_sha256(primitive), primitive.text_sha256);
}

TEST_F(SceneMeshes, ConvexVerticesAreHulled) {
  // A tetrahedron with a point inside it: the hull keeps the four corners.
  const Scene s = load("{type: convex, vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.1, 0.1, 0.1]]}");
  const Shape& shape = s.system.contacts.geometries()[0].shape;
  EXPECT_EQ(shape.hull->vertices.size(), 4u);
  EXPECT_NEAR(s.system.model.bodies[0].mass, 1000.0 / 6, 1e-9);
}

TEST_F(SceneMeshes, AHullOfANonConvexMeshWhenAsked) {
  // The cube with its top face's centre pushed in: a closed, non-convex surface.
  std::string dented = std::string(kCube) + "v 0.5 0.5 0.5\n";
  dented.replace(dented.find("f 5 6 7\nf 5 7 8\n"), 16, "f 5 6 9\nf 6 7 9\nf 7 8 9\nf 8 5 9\n");
  write("dented.obj", dented);
  EXPECT_TRUE(starts(error("{type: mesh, file: dented.obj}"), "bodies[0].shapes[0].file: the mesh is not convex ("));
  const Scene s = load("{type: mesh, file: dented.obj, hull: true}");
  EXPECT_NEAR(s.system.model.bodies[0].mass, 1000.0, 1e-9);  // the hull is the whole cube
}

TEST_F(SceneMeshes, MistakesAreLocated) {
  std::string open = kCube;
  open.erase(open.find("f 4 5 8\n"));
  write("open.obj", open);
  std::string inward = kCube;
  for (size_t at = inward.find("f "); at != std::string::npos; at = inward.find("f ", at + 1)) {
    const size_t end = inward.find('\n', at);
    std::string a, b, c;
    std::istringstream(inward.substr(at + 2, end - at - 2)) >> a >> b >> c;
    inward.replace(at, end - at, "f " + a + " " + c + " " + b);
  }
  write("inward.obj", inward);
  write("lines.obj", "v 0 0 0\nv 1 0 0\nl 1 2\n");
  EXPECT_EQ(error("{type: mesh, file: none.obj}"),
            "bodies[0].shapes[0].file: no such mesh file '" + (dir_ / "none.obj").string() + "'");
  EXPECT_EQ(error("{type: mesh, file: parts}"), "bodies[0].shapes[0].file: '" + (dir_ / "parts").string() + "' is not a regular file");
  EXPECT_TRUE(starts(error("{type: mesh, file: open.obj}"), "bodies[0].shapes[0].file: the mesh is not closed (edge ("));
  EXPECT_EQ(error("{type: mesh, file: inward.obj}"),
            "bodies[0].shapes[0].file: the mesh's triangles face inwards (its volume is negative)");
  EXPECT_NE(error("{type: mesh, file: lines.obj}").find("no triangles"), std::string::npos) << error("{type: mesh, file: lines.obj}");
  EXPECT_EQ(error("{type: mesh}"), "bodies[0].shapes[0].file: missing required key 'file'");
  EXPECT_EQ(error("{type: convex, vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}"),
            "bodies[0].shapes[0].vertices: a convex shape needs at least 4 vertices that span a solid");
  EXPECT_TRUE(starts(error("{type: convex, vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]}"),
                     "bodies[0].shapes[0].vertices: the points span no volume (Qhull"));
  EXPECT_EQ(error("{type: convex, vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], file: x.obj}"),
            "bodies[0].shapes[0].file: unknown key 'file' (allowed here: type, name, position, rpy_deg, vertices)");
}

}  // namespace
}  // namespace impactsim
