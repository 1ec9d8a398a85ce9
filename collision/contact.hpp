#pragma once
// Contacts: a fixed, enumerated set, each a point feature (a vertex, or a sphere's centre with its
// radius) on a first body A against a convex solid on a second body B (halfspace, sphere, box,
// capsule, cylinder; a cylinder is a disk in a planar scene), or a shape pair: a whole solid on A
// against the solid on B, one contact at their closest (or deepest) points.
//
// Conventions (Halm and Posa eq. (12), (26)-(27)):
// - phi is the signed distance from the feature's surface to B's surface [m]; negative = penetration.
//   A point feature's is computed exactly from the point-to-primitive distance, not by FCL (whose
//   signed distance fails against halfspaces and near touching: the issues listed in
//   collision/fcl_distance.hpp). A shape pair's is shape_pair_distance (collision/shape_pair.hpp):
//   exact forms where they exist, FCL's GJK for the other pairs apart.
// - The normal n points from B to A (the gradient of B's distance field at the feature), so
//   J_n v = n . (v_A - v_B) at the contact points is positive when the contact separates.
// - Tangents: one in a planar scene, t = (n_y, -n_x, 0) (n turned clockwise about z: the floor's
//   normal +y gives t = +x); two in 3-D, t1 = world x (or y) projected onto the tangent plane and
//   t2 = n x t1, a right-handed frame (t1, t2, n).
// - J_i = [J_n,i; J_t,i] maps v to the relative velocity of A's contact point with respect to B's,
//   in (n, t...) components; core assembles it from the frame (core/contact_dynamics.hpp).
// Body poses come in as plain data: R[b] (body axes in the world) and p[b] (body origin, world).
#include <cmath>
#include <string>
#include <vector>

#include "collision/fcl_distance.hpp"
#include "collision/shape.hpp"

namespace impactsim {

struct ContactDef {
  std::string name;
  int body_a = -1;            // first body (-1 is the world)
  Vec3 point = Vec3::Zero();  // the feature on A, A's body frame [m]; a shape pair: A's shape origin
  double radius = 0.0;        // > 0: a sphere (disk) of this radius around the point [m]
  int geometry_b = -1;        // index into the scene's geometries: the solid on the second body
  double mu = 0.0;            // Coulomb friction coefficient
  double e = 0.0;             // Newton restitution coefficient
  // >= 0: while open, the contact cannot impact when its point on A is behind this other contact's
  // (along tangent1): a walker's swing foot passes through the ground at mid-stance, "foot
  // scuffing ignored" as in the compass-gait literature (Garcia et al. 1998). -1: always can.
  int only_ahead_of = -1;
  // >= 0: a shape-pair contact, this geometry (on body_a, never a halfspace) against geometry_b;
  // point and radius are then unused by phi. -1: a point feature.
  int geometry_a = -1;
};

struct ContactFrame {
  double phi = 0.0;
  Vec3 normal = Vec3::UnitZ();
  Vec3 tangent1 = Vec3::UnitX();
  Vec3 tangent2 = Vec3::UnitY();
  Vec3 point_a = Vec3::Zero();  // witness on A's surface, world
  Vec3 point_b = Vec3::Zero();  // witness on B's surface, world
};

// A 3-D frame's tangent1 is the unit part of this seed normal to n (tangent2 = n x tangent1): a
// fixed axis, switched where n comes near it. core/'s closed-form Jdot v differentiates this rule.
inline Vec3 tangent_seed(const Vec3& n) { return std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY(); }

// Signed distance from a point to a solid, in the solid's shape frame, with the outward unit
// gradient. Exact for every ShapeType.
struct PointDistance {
  double distance;
  Vec3 gradient;
};
PointDistance point_to_shape(const Shape& shape, const Vec3& x_shape);

// Where geometry g's shape frame is in the world, with its body at poses (R, p).
Pose geometry_pose(const Geometry& g, const std::vector<Mat3>& R, const std::vector<Vec3>& p);

class ContactModel {
 public:
  ContactModel() = default;  // no contacts
  ContactModel(std::vector<Geometry> geometries, std::vector<ContactDef> contacts, bool planar);

  int size() const { return static_cast<int>(contacts_.size()); }
  int tangent_dim() const { return planar_ ? 1 : 2; }
  const ContactDef& contact(int i) const { return contacts_[i]; }
  const std::vector<ContactDef>& contacts() const { return contacts_; }
  int body_b(int i) const { return geometries_[contacts_[i].geometry_b].body; }
  const std::vector<Geometry>& geometries() const { return geometries_; }

  bool planar() const { return planar_; }

  // phi and frame of contact i with the bodies at poses (R, p).
  ContactFrame frame(const std::vector<Mat3>& R, const std::vector<Vec3>& p, int i) const;

 private:
  std::vector<Geometry> geometries_;
  std::vector<ContactDef> contacts_;
  bool planar_ = false;
};

}  // namespace impactsim
