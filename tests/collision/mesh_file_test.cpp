// Meshes read from OBJ and STL files written here: a cube comes back closed with the right volume
// from both (STL's repeated vertices welded), and a missing file, a file with no triangles and a
// file that is not a mesh are refused with the path and the reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "collision/mesh_file.hpp"

namespace impactsim {
namespace {

std::string write(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/mesh_file_test_" + name;
  std::ofstream(path) << text;
  return path;
}

const char* kCubeObj = R"(# unit cube
v 0 0 0
v 1 0 0
v 0 1 0
v 1 1 0
v 0 0 1
v 1 0 1
v 0 1 1
v 1 1 1
f 1 3 4 2
f 5 6 8 7
f 1 2 6 5
f 3 7 8 4
f 1 5 7 3
f 2 4 8 6
)";

// The same cube as ASCII STL: each triangle lists its own three vertices.
std::string cube_stl() {
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  auto corner = [](int k) {
    return std::to_string(k & 1) + " " + std::to_string((k >> 1) & 1) + " " + std::to_string((k >> 2) & 1);
  };
  std::string s = "solid cube\n";
  for (const auto& q : quads)
    for (const auto& t : {std::array<int, 3>{q[0], q[1], q[2]}, std::array<int, 3>{q[0], q[2], q[3]}}) {
      s += "facet normal 0 0 0\nouter loop\n";
      for (int k : t) s += "vertex " + corner(k) + "\n";
      s += "endloop\nendfacet\n";
    }
  return s + "endsolid cube\n";
}

TEST(ReadMeshFile, ObjAndStlCubesComeBackClosed) {
  for (const std::string& path : {write("cube.obj", kCubeObj), write("cube.stl", cube_stl())}) {
    const TriangleMesh m = read_mesh_file(path);
    EXPECT_EQ(m.vertices.size(), 8u) << path;
    EXPECT_EQ(m.triangles.size(), 12u) << path;
    EXPECT_EQ(closed_mesh_problem(m), "") << path;
    EXPECT_NEAR(mesh_volume(m), 1.0, 1e-12) << path;
  }
}

TEST(ReadMeshFile, BadFilesAreRefusedWithPathAndReason) {
  auto message = [](const std::string& path) {
    try {
      read_mesh_file(path);
    } catch (const MeshFileError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string missing = ::testing::TempDir() + "/no_such_mesh.obj";
  EXPECT_EQ(message(missing), missing + ": cannot open the mesh file (does it exist and is it a regular file?)");
  const std::string points_only = write("points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n");
  EXPECT_NE(message(points_only).find(points_only + ": "), std::string::npos);
  EXPECT_NE(message(points_only), "no error");
  const std::string garbage = write("garbage.stl", "this is not a mesh\n");
  EXPECT_NE(message(garbage).find(garbage + ": "), std::string::npos) << message(garbage);
  EXPECT_EQ(message(::testing::TempDir()).find("cannot open the mesh file"), ::testing::TempDir().size() + 2);
}

}  // namespace
}  // namespace impactsim
