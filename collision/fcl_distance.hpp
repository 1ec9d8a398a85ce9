#pragma once
// Signed distance between two solid shapes by FCL (GJK/EPA, libccd solver), for shape pairs that
// have no exact formula here and as a cross-check of the exact ones.
//
// Known FCL problems this wrapper guards against (FCL issues #392, #623, #493, #495, #445, #346,
// #570): no signed distance to halfspaces (refused here), EPA exceptions near touching contact and
// coincident centres (caught and reported), cylinders reporting zero depth when penetrating. The
// exact point-feature contacts (collision/contact.hpp) do not use FCL.
#include <string>

#include "collision/shape.hpp"

namespace impactsim {

struct Pose {
  Mat3 R = Mat3::Identity();   // shape axes in the world
  Vec3 p = Vec3::Zero();       // shape origin in the world [m]
};

struct FclDistance {
  bool ok = false;
  double distance = 0.0;       // signed: negative is penetration depth [m]
  Vec3 point_a = Vec3::Zero(); // nearest (or deepest) points, world
  Vec3 point_b = Vec3::Zero();
  std::string error;           // why ok is false
};

FclDistance fcl_signed_distance(const Shape& a, const Pose& pose_a, const Shape& b, const Pose& pose_b);

// The distance of shapes that are apart, by GJK alone: EPA never runs. Debian's FCL is built with
// its assertions on, and its EPA (libccd and its own solver alike) aborts the process on some
// overlapping boxes, capsules and cylinders (FCL issues #322, #428). distance <= 0 means the shapes
// overlap or touch, and the rest of the answer then means nothing.
FclDistance fcl_gjk_distance(const Shape& a, const Pose& pose_a, const Shape& b, const Pose& pose_b);

}  // namespace impactsim
