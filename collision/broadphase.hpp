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
//
// The near set. With collide: all a pile's contacts grow as its bodies squared, yet a body can
// touch only its neighbours. The event loop therefore
// follows a near set (NearSet, select_near): the groups whose bound at selection is at most the
// margin plus a reach of each of their two bodies (the world's is 0). A group's bound moves by at
// most the motions of its two anchor points, |dp| + |R - R0|_F |x| for a body point x (motion).
// Each group left out has a slack, its bound less the margin, above its bodies' reaches; they
// share it in proportion to their reaches, and each body's budget is the least share it holds.
// While every body has moved from its poses at selection by less than its budget (holds), every
// group left out still has its bound above the margin: its phi there is that bound, positive, and
// none of its contacts can touch or fire. Groups whose bound can turn without a bounded motion
// (against a halfspace carried by a moving body) and groups holding a gated contact or the contact
// a gate refers to (only_ahead_of) are always followed.
#include <vector>

#include "collision/contact.hpp"

namespace impactsim {

// The groups the event loop follows and their contacts (Broadphase::select_near), with the body
// poses they were selected at and each body's motion budget. `all`: every group and contact (the
// default, for every caller without a horizon).
struct NearSet {
  bool all = true;
  std::vector<int> groups;      // followed groups, ascending (empty when all)
  std::vector<int> contacts;    // their contacts, ascending (every contact when all)
  std::vector<Mat3> R;          // the poses at selection (empty when all)
  std::vector<Vec3> p;
  std::vector<double> budget;   // [m] per body: the motion from those poses it may make (infinite: no group left out)
};

class Broadphase {
 public:
  // The groups and bounding spheres of `contacts`, which every later call must be given.
  explicit Broadphase(const ContactModel& contacts);

  // phi of every contact with the bodies at poses (R, p): exact for the groups whose bound is at
  // most `margin` [m] (their frames written to `frames`), else the group's lower bound. Returns how
  // many contacts were computed exactly.
  int update(const ContactModel& contacts, double margin, const std::vector<Mat3>& R, const std::vector<Vec3>& p,
             std::vector<ContactFrame>& frames) const;
  // The same over the groups of `near` only: the other contacts' frames are left as they were.
  int update(const ContactModel& contacts, double margin, const std::vector<Mat3>& R, const std::vector<Vec3>& p,
             const NearSet& near, std::vector<ContactFrame>& frames) const;

  // Every contact (near.all), for a caller that follows them all.
  NearSet everything(const ContactModel& contacts) const;
  // The near set at poses (R, p) for per-body reaches [m] (`reach`, one per body, each > 0): the
  // groups whose bound is at most margin + the reaches of their bodies, and the always-followed
  // ones, with each body's budget (at least its reach). With `keep`, near's groups stay followed
  // as well (a phase's set only grows: a contact it follows keeps its guards). `near` is
  // overwritten, its storage reused.
  void select_near(const ContactModel& contacts, double margin, const std::vector<double>& reach,
                   const std::vector<Mat3>& R, const std::vector<Vec3>& p, bool keep, NearSet& near) const;
  // Whether every body is within `fraction` of its budget from near's poses (always where
  // near.all); the bodies that are not are appended to `over` where given.
  bool holds(const NearSet& near, const std::vector<Mat3>& R, const std::vector<Vec3>& p, double fraction,
             std::vector<int>* over = nullptr) const;
  // An upper bound on how far any point a group's bound reads on `body` moved between poses [m].
  double motion(int body, const Mat3& R0, const Vec3& p0, const Mat3& R, const Vec3& p) const;

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
    int body_b = -1;             // geometry_b's body (-1: the world)
    bool pinned = false;         // always near (see the header comment)
  };
  // A point fixed in a body (body < 0: the world), shared by the groups that bound from it: a pile
  // has one per body for thousands of groups, so update places each once, not once per group.
  struct Anchor {
    int body = -1;
    Vec3 point = Vec3::Zero();
  };
  int anchor_of(int body, const Vec3& point);
  // Every anchor and every halfspace's normal in the world at (R, p), in per-thread scratch.
  struct WorldAnchors {
    std::vector<Vec3> point, normal;
  };
  const WorldAnchors& place(const ContactModel& contacts, const std::vector<Mat3>& R, const std::vector<Vec3>& p) const;
  double group_bound(const ContactModel& contacts, const WorldAnchors& w, const Group& g) const;
  // One group's part of update: returns how many of its contacts were computed exactly.
  int update_group(const ContactModel& contacts, double margin, const std::vector<Mat3>& R, const std::vector<Vec3>& p,
                   const WorldAnchors& w, const Group& g, std::vector<ContactFrame>& frames) const;
  double lower_bound(const Geometry& b, const std::vector<Mat3>& R, const std::vector<Vec3>& p, const Group& g) const;
  // The bound from the group's centre and B's origin in the world, and for a halfspace B its
  // world normal: lower_bound's arithmetic, so both give the same bits.
  double separation(const Geometry& b, const Vec3& center, const Vec3& origin, const Vec3& normal, const Group& g) const;

  std::vector<Group> groups_;
  std::vector<int> group_of_;         // each contact's group
  std::vector<double> solid_radius_;  // bounding radius of each geometry about its origin (0: halfspace)
  std::vector<Anchor> anchors_;
  std::vector<int> origin_anchor_;    // each geometry's origin (body, shape.position) in anchors_
  std::vector<double> lever_;         // per body: the largest |x| of its anchors [m]
};

}  // namespace impactsim
