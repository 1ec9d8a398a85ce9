#pragma once
// Collision geometry as plain data, and the mass properties of solid shapes.
//
// Each shape has its own frame, placed in its body's frame by (position, rotation):
// - box: full edge lengths `size` along the shape's x, y, z [m], centred on the origin;
// - sphere: `radius`, centred;
// - cylinder: `radius`, `length` along the shape's z axis, centred (a disk in a planar scene,
//   where z is the plane's normal);
// - capsule: `radius`, cylinder part `length` along z, hemispherical caps beyond it (FCL's convention);
// - cone: base `radius` at z = -length/2, apex at z = +length/2 (FCL's convention: the origin is
//   halfway up the axis, not the centre of mass, which is length/4 below it);
// - halfspace: the solid { x : normal . x <= offset } in the shape frame; the normal points out of
//   the solid. Only static (world or fixed) bodies may carry one: it has infinite volume;
// - convex: the convex polyhedron `hull`, a closed, outward, convex triangle mesh in the shape frame
//   (collision/mesh.hpp), from listed vertices (their convex hull) or a mesh file.
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace impactsim {

// collision/ depends on Eigen alone; these are the same types core/spatial.hpp names.
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

enum class ShapeType { box, sphere, cylinder, capsule, halfspace, convex, cone };

struct TriangleMesh;  // collision/mesh.hpp

struct Shape {
  ShapeType type = ShapeType::sphere;
  Vec3 size = Vec3::Zero();
  double radius = 0.0;
  double length = 0.0;
  Vec3 normal = Vec3::UnitZ();
  double offset = 0.0;
  std::shared_ptr<const TriangleMesh> hull;  // convex only: shared, never changed once made
  Vec3 position = Vec3::Zero();         // shape origin in the body frame [m]
  Mat3 rotation = Mat3::Identity();     // shape axes in the body frame
  std::string file;  // a mesh read from a file: its path as the scene resolved it (provenance only)
};

// A shape attached to a body of the model (body = -1: the world).
struct Geometry {
  std::string name;
  int body = -1;
  Shape shape;
};

struct MassProperties {
  double mass = 0.0;                 // [kg]
  Vec3 com = Vec3::Zero();           // in the body frame [m]
  Mat3 inertia = Mat3::Zero();       // about com, body axes [kg m^2]
};

std::string_view shape_type_name(ShapeType type);
// The radius of a sphere about the shape's origin that holds it [m]; 0 for a halfspace.
double bounding_radius(const Shape& shape);
// Volume [m^3]; infinity for a halfspace.
double shape_volume(const Shape& shape);
// Mass properties of the solid shape at uniform density [kg/m^3], in its body's frame.
MassProperties shape_mass_properties(const Shape& shape, double density);
// Mass properties of several parts of one body (parallel-axis theorem).
MassProperties combine_mass_properties(const std::vector<MassProperties>& parts);

}  // namespace impactsim
