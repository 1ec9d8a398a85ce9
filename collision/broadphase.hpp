#pragma once
// Broadphase for the contact set: contacts are grouped by (first body, second solid); a bounding
// sphere around a group's features (a shape pair's feature is its whole first shape) and one around the solid (a halfspace is its own bound) give a
// lower bound on every phi of the group. While that bound exceeds the margin, the group's exact
// distances are not computed and the bound stands in for them: it is positive and never above the
// true phi, so an impact guard cannot fire early or be missed (it fires only where phi <= 0, which
// the bound never hides). Far-apart bodies then cost one sphere test per pair, not one distance per
// feature. Within a group near enough, a point feature (a corner, a sphere's centre) is computed
// exactly only where its own bound, the point against the solid's plane or bounding sphere, is
// within the margin too.
#include <vector>

#include "collision/contact.hpp"

namespace impactsim {

class Broadphase {
 public:
  // The groups and bounding spheres of `contacts`, which every later call must be given.
  explicit Broadphase(const ContactModel& contacts);

  // phi of every contact with the bodies at poses (R, p): exact for the groups whose bound is at
  // most `margin` [m] (their frames written to `frames`), else the group's lower bound. Returns how
  // many contacts were computed exactly.
  int update(const ContactModel& contacts, double margin, const std::vector<Mat3>& R, const std::vector<Vec3>& p,
             std::vector<ContactFrame>& frames) const;

  // Contact i's phi as update writes it: exact where its group's bound is at most `margin`, else
  // that bound (the same bits as update's, for one contact at the cost of one).
  double phi(const ContactModel& contacts, double margin, const std::vector<Mat3>& R, const std::vector<Vec3>& p,
             int i) const;

  // A lower bound on contact i's phi (its group's), wherever its bodies are.
  double bound(const ContactModel& contacts, const std::vector<Mat3>& R, const std::vector<Vec3>& p, int i) const;

  int groups() const { return static_cast<int>(groups_.size()); }

 private:
  struct Group {
    int body_a = -1;
    int geometry_b = -1;
    Vec3 center = Vec3::Zero();  // feature sphere centre, A's body frame
    double radius = 0.0;         // it holds every feature with its own radius
    std::vector<int> contacts;
    int anchor = -1;             // (body_a, center) in anchors_
  };
  // A point fixed in a body (body < 0: the world), shared by the groups that bound from it: a pile
  // has one per body for thousands of groups, so update places each once, not once per group.
  struct Anchor {
    int body = -1;
    Vec3 point = Vec3::Zero();
  };
  int anchor_of(int body, const Vec3& point);
  double lower_bound(const Geometry& b, const std::vector<Mat3>& R, const std::vector<Vec3>& p, const Group& g) const;
  // The bound from the group's centre and B's origin in the world, and for a halfspace B its
  // world normal: lower_bound's arithmetic, so both give the same bits.
  double separation(const Geometry& b, const Vec3& center, const Vec3& origin, const Vec3& normal, const Group& g) const;

  std::vector<Group> groups_;
  std::vector<int> group_of_;         // each contact's group
  std::vector<double> solid_radius_;  // bounding radius of each geometry about its origin (0: halfspace)
  std::vector<Anchor> anchors_;
  std::vector<int> origin_anchor_;    // each geometry's origin (body, shape.position) in anchors_
};

}  // namespace impactsim
