#pragma once
// Automatic contacts: the contacts between two solids, from their shapes alone, for scenes that say
// which bodies collide instead of listing contact points.
//
// The model is the papers' (Halm and Posa sec. 3; Anitescu and Potra): one contact per supporting
// feature, a fixed set whose members open and close as the bodies move. For each pair of geometries:
// - a solid against a halfspace: a box's corners (4 in a planar scene), a convex polyhedron's
//   vertices, a capsule's two end spheres, a sphere's (or planar disk's) centre with its radius; a
//   cone is one shape-pair contact, and so is a 3-D cylinder (its rim's lowest point), with four
//   points on each rim that hold it flat;
// - a sphere against any solid: its centre with its radius, against that solid (exact);
// - box against box: each box's corners against the other box (vertex-face contacts; two boxes
//   whose edges cross with no corner touching are not seen);
// - any other pair: one shape-pair contact at the closest points (collision/shape_pair.hpp: capsule
//   pairs exactly, the rest by FCL's GJK).
// The halfspace, and else the sphere, is put on the first body's side as the feature holder only
// where the rule above needs it; mu and e are left for the caller.
//
// Names are stable, built from the shapes and features: `<A>.<corner>@<B>` for corners (the corner's
// signs in A's shape axes, `+x-y+z`), `<A>.v<k>@<B>` for a convex polyhedron's vertex k (its index in
// the hull), `<A>.0@<B>` and `<A>.1@<B>` for a capsule's ends, `<A>@<B>` for a
// sphere or a shape pair, `<A>.rim+z<k>@<B>` and `<A>.rim-z<k>@<B>` (k = 0..3, from the shape's +x
// axis) for a cylinder's rim points, A being the shape that holds the feature.
#include <stdexcept>
#include <vector>

#include "collision/contact.hpp"

namespace impactsim {

// The corners of a box shape in its body's frame (4 at z = 0 in a planar scene), with their labels.
struct BoxCorner {
  std::string label;  // "+x-y+z": the signs of the corner in the shape's axes
  Vec3 point;         // in the body frame [m]
};
std::vector<BoxCorner> box_corners(const Shape& box, bool planar);

// A point feature of a shape: a vertex (radius 0), or a sphere's centre with its radius.
struct PointFeature {
  std::string label;  // "" for a sphere's or disk's centre; "0", "1" for a capsule's ends; a box
                      // corner's signs ("+x-y+z"); "v<k>" for a polyhedron's vertex k
  Vec3 point;         // in the body frame [m]
  double radius;      // [m]
};
// The point features of a shape, which carry all its contacts against a halfspace (and a sphere's
// against anything); empty where its contacts are not points: a 3-D cylinder, a cone, a halfspace.
std::vector<PointFeature> point_features(const Shape& s, bool planar);

// The contacts between geometries g1 and g2 (indices into `geometries`), geometry_b and body_a set.
// Throws std::invalid_argument for two halfspaces or two shapes of the same body.
std::vector<ContactDef> pair_contacts(const std::vector<Geometry>& geometries, int g1, int g2, bool planar);

}  // namespace impactsim
