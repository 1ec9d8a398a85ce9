#pragma once
// The contact manifold of two solids at touching: one contact per supporting feature, as the papers
// model flat contact. A box flat on a face or a halfspace has its four corners; a box on another's
// edge, the two ends of that edge (clipped to the face); a face across a face, the vertices of the
// overlap polygon (corners inside the other face and edge crossings); curved shapes, one point.
//
// Conventions: those of collision/shape_pair.hpp. `normal` points from B to A; each point's
// distance is its signed gap along it, and point_a = point_b + distance * normal. A point belongs to
// the manifold when its gap is at most the pair's signed distance plus `tolerance` [m]; there is no
// manifold at all while the pair is farther apart than `tolerance`.
//
// Feature names are stable while the same features touch, so a contact keeps its name from birth to
// lift-off: "<feature of A>|<feature of B>", each one of v<k> (box corner k: bit 0, 1, 2 of k set
// for the +x, +y, +z half), e<k1><k2> (the box edge between corners k1 < k2), f+x ... f-z (box
// faces), or `surface` (a sphere, capsule, cylinder or halfspace, where one point stands for it).
#include <string>
#include <vector>

#include "collision/shape_pair.hpp"

namespace impactsim {

struct ManifoldPoint {
  Vec3 point_a = Vec3::Zero();
  Vec3 point_b = Vec3::Zero();
  double distance = 0.0;
  std::string feature;
};

struct Manifold {
  Vec3 normal = Vec3::UnitZ();
  std::vector<ManifoldPoint> points;  // empty: apart by more than the tolerance (or no distance)
};

Manifold contact_manifold(const Shape& a, const Pose& pose_a, const Shape& b, const Pose& pose_b, double tolerance);

}  // namespace impactsim
