#pragma once
// Signed distance between two solid shapes, each placed in the world by a Pose: the query behind
// automatic shape-pair contacts.
//
// Conventions (the same as the point contacts of collision/contact.hpp):
// - distance is signed [m]: positive is the gap, negative the penetration depth (the shortest
//   translation of A that separates the two);
// - normal is a unit vector from B to A: moving A along it by -distance makes the shapes touch;
// - point_a is on A's surface and point_b on B's, in the world; point_a = point_b + distance * normal
//   up to rounding (for a penetration, they are the deepest points along the normal).
//
// Exact forms are used wherever FCL's signed distance is unreliable or unavailable (halfspaces, near
// touching; see collision/fcl_distance.hpp): any shape against a halfspace (its support point), a
// sphere against any solid (point to solid), capsule against capsule (segment to segment), and box
// against box (vertices and edges when apart, the 15 separating axes when overlapping). Other pairs
// go to FCL's GJK while apart, and to a search for the direction of least overlap when overlapping
// or where GJK fails (FCL's EPA is never run: it can abort the process); `method` says which answered.
#include <string>

#include "collision/fcl_distance.hpp"
#include "collision/shape.hpp"

namespace impactsim {

// exact: a closed form above; fcl: FCL's GJK, apart; overlap_search: overlapping with no closed
// form, the least overlap over directions found by search (never shallower than the truth).
enum class DistanceMethod { exact, fcl, overlap_search };

struct PairDistance {
  bool ok = false;
  double distance = 0.0;
  Vec3 normal = Vec3::UnitZ();
  Vec3 point_a = Vec3::Zero();
  Vec3 point_b = Vec3::Zero();
  DistanceMethod method = DistanceMethod::exact;
  std::string error;  // why ok is false: two halfspaces, the only pair without a distance
};

PairDistance shape_pair_distance(const Shape& a, const Pose& pose_a, const Shape& b, const Pose& pose_b);

// The closest points of segments [p0, p1] and [q0, q1] (Ericson, Real-Time Collision Detection,
// sec. 5.1.9), written to c_p and c_q.
void closest_points_of_segments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, Vec3& c_p,
                                Vec3& c_q);

}  // namespace impactsim
