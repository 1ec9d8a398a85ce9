#include "collision/broadphase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "collision/mesh.hpp"

namespace impactsim {
namespace {

Vec3 world_point(const std::vector<Mat3>& R, const std::vector<Vec3>& p, int body, const Vec3& x) {
  return body < 0 ? x : Vec3(p[body] + R[body] * x);
}

Vec3 world_normal(const Geometry& b, const std::vector<Mat3>& Rb) {
  const Mat3 R = b.body < 0 ? b.shape.rotation : Mat3(Rb[b.body] * b.shape.rotation);
  return R * b.shape.normal;
}

// A point feature's own lower bound on phi, for a group within the margin: the point against B's
// plane (exact for a point) or B's bounding sphere (solid_radius), from B's world origin and, for a
// halfspace, its world normal. The top corners of a box resting on the ground, or the far corners of
// a box beside another, then cost a point and a dot product, not an exact distance and a frame.
double point_bound(const ContactDef& c, const Geometry& b, double solid_radius, const Vec3& x, const Vec3& origin,
                   const Vec3& normal) {
  if (b.shape.type == ShapeType::halfspace) return normal.dot(x - origin) - b.shape.offset - c.radius;
  return (x - origin).norm() - solid_radius - c.radius;
}

}  // namespace

Broadphase::Broadphase(const ContactModel& contacts) {
  for (const Geometry& g : contacts.geometries()) solid_radius_.push_back(bounding_radius(g.shape));
  // Groups in the order of their first contact, found by key: a search of the groups for each
  // contact would grow as contacts times groups, both quadratic in the bodies of a pile.
  std::map<std::pair<int, int>, int> index;
  group_of_.assign(static_cast<size_t>(contacts.size()), -1);
  for (int i = 0; i < contacts.size(); ++i) {
    const ContactDef& c = contacts.contact(i);
    const auto [it, added] = index.try_emplace({c.body_a, c.geometry_b}, static_cast<int>(groups_.size()));
    if (added) groups_.push_back({c.body_a, c.geometry_b, Vec3::Zero(), 0.0, {}});
    groups_[static_cast<size_t>(it->second)].contacts.push_back(i);
    group_of_[static_cast<size_t>(i)] = it->second;
  }
  // A feature's bounding sphere in A's body frame: the point with its radius, or a pair's whole shape.
  auto sphere = [&](int i) -> std::pair<Vec3, double> {
    const ContactDef& c = contacts.contact(i);
    if (c.geometry_a < 0) return {c.point, c.radius};
    const Shape& s = contacts.geometries()[c.geometry_a].shape;
    return {s.position, bounding_radius(s)};
  };
  for (Group& g : groups_) {
    for (int i : g.contacts) g.center += sphere(i).first / static_cast<double>(g.contacts.size());
    for (int i : g.contacts) {
      const auto [centre, radius] = sphere(i);
      g.radius = std::max(g.radius, (centre - g.center).norm() + radius);
    }
    g.anchor = anchor_of(g.body_a, g.center);
  }
  for (const Geometry& g : contacts.geometries()) origin_anchor_.push_back(anchor_of(g.body, g.shape.position));
  // Gates: the gated contact and the one it refers to are read together (guards.hpp, behind).
  std::vector<bool> gate(static_cast<size_t>(contacts.size()), false);
  for (int i = 0; i < contacts.size(); ++i)
    if (const int j = contacts.contact(i).only_ahead_of; j >= 0) gate[static_cast<size_t>(i)] = gate[static_cast<size_t>(j)] = true;
  for (Group& g : groups_) {
    const Geometry& b = contacts.geometries()[static_cast<size_t>(g.geometry_b)];
    g.body_b = b.body;
    g.pinned = b.shape.type == ShapeType::halfspace && b.body >= 0;
    for (int i : g.contacts) g.pinned = g.pinned || gate[static_cast<size_t>(i)];
  }
  for (const Anchor& a : anchors_) {
    if (a.body < 0) continue;
    if (static_cast<size_t>(a.body) >= lever_.size()) lever_.resize(static_cast<size_t>(a.body) + 1, 0.0);
    lever_[static_cast<size_t>(a.body)] = std::max(lever_[static_cast<size_t>(a.body)], a.point.norm());
  }
}

int Broadphase::anchor_of(int body, const Vec3& point) {
  for (size_t k = anchors_.size(); k-- > 0;)  // a body's groups come together: look back from the last
    if (anchors_[k].body == body && anchors_[k].point == point) return static_cast<int>(k);
  anchors_.push_back({body, point});
  return static_cast<int>(anchors_.size()) - 1;
}

double Broadphase::separation(const Geometry& b, const Vec3& center, const Vec3& origin, const Vec3& normal,
                              const Group& g) const {
  if (b.shape.type == ShapeType::halfspace) return normal.dot(center - origin) - b.shape.offset - g.radius;
  return (center - origin).norm() - g.radius - solid_radius_[g.geometry_b];
}

double Broadphase::lower_bound(const Geometry& b, const std::vector<Mat3>& Rb, const std::vector<Vec3>& pb,
                               const Group& g) const {
  const Vec3 center = world_point(Rb, pb, g.body_a, g.center);
  const Vec3 origin = world_point(Rb, pb, b.body, b.shape.position);
  const Vec3 normal = b.shape.type == ShapeType::halfspace ? world_normal(b, Rb) : Vec3::Zero();
  return separation(b, center, origin, normal, g);
}

// Scratch kept per thread, so that a pass allocates nothing once warm.
const Broadphase::WorldAnchors& Broadphase::place(const ContactModel& contacts, const std::vector<Mat3>& R, const std::vector<Vec3>& p) const {
  thread_local WorldAnchors w;
  w.point.resize(anchors_.size());
  for (size_t k = 0; k < anchors_.size(); ++k) w.point[k] = world_point(R, p, anchors_[k].body, anchors_[k].point);
  const std::vector<Geometry>& geometries = contacts.geometries();
  w.normal.resize(geometries.size());
  for (size_t k = 0; k < geometries.size(); ++k)
    if (geometries[k].shape.type == ShapeType::halfspace) w.normal[k] = world_normal(geometries[k], R);
  return w;
}

double Broadphase::group_bound(const ContactModel& contacts, const WorldAnchors& w, const Group& g) const {
  const size_t b = static_cast<size_t>(g.geometry_b);
  return separation(contacts.geometries()[b], w.point[static_cast<size_t>(g.anchor)],
                    w.point[static_cast<size_t>(origin_anchor_[b])], w.normal[b], g);
}

int Broadphase::update_group(const ContactModel& contacts, double margin, const std::vector<Mat3>& R,
                             const std::vector<Vec3>& p, const WorldAnchors& w, const Group& g,
                             std::vector<ContactFrame>& frames) const {
  const double bound = group_bound(contacts, w, g);
  if (bound > margin) {
    for (int i : g.contacts) frames[i].phi = bound;
    return 0;
  }
  const size_t b = static_cast<size_t>(g.geometry_b);
  const Geometry& solid = contacts.geometries()[b];
  const Vec3& origin = w.point[static_cast<size_t>(origin_anchor_[b])];
  int exact = 0;
  for (int i : g.contacts) {
    const ContactDef& c = contacts.contact(i);
    if (c.geometry_a < 0) {
      const double own = point_bound(c, solid, solid_radius_[b], world_point(R, p, c.body_a, c.point), origin, w.normal[b]);
      if (own > margin) {
        frames[i].phi = own;
        continue;
      }
    }
    frames[i] = contacts.frame(R, p, i);
    ++exact;
  }
  return exact;
}

int Broadphase::update(const ContactModel& contacts, double margin, const std::vector<Mat3>& R,
                       const std::vector<Vec3>& p, std::vector<ContactFrame>& frames) const {
  const WorldAnchors& w = place(contacts, R, p);
  int exact = 0;
  for (const Group& g : groups_) exact += update_group(contacts, margin, R, p, w, g, frames);
  return exact;
}

int Broadphase::update(const ContactModel& contacts, double margin, const std::vector<Mat3>& R,
                       const std::vector<Vec3>& p, const NearSet& near, std::vector<ContactFrame>& frames) const {
  if (near.all) return update(contacts, margin, R, p, frames);
  const WorldAnchors& w = place(contacts, R, p);
  int exact = 0;
  for (int k : near.groups) exact += update_group(contacts, margin, R, p, w, groups_[static_cast<size_t>(k)], frames);
  return exact;
}

NearSet Broadphase::everything(const ContactModel& contacts) const {
  NearSet near;
  near.contacts.resize(static_cast<size_t>(contacts.size()));
  for (int i = 0; i < contacts.size(); ++i) near.contacts[static_cast<size_t>(i)] = i;
  return near;
}

void Broadphase::select_near(const ContactModel& contacts, double margin, const std::vector<double>& reach,
                             const std::vector<Mat3>& R, const std::vector<Vec3>& p, bool keep, NearSet& near) const {
  const auto of = [&](const std::vector<double>& per_body, int body) {
    return body < 0 ? 0.0 : per_body[static_cast<size_t>(body)];
  };
  thread_local std::vector<bool> followed;
  followed.assign(groups_.size(), false);
  if (keep && !near.all)
    for (int k : near.groups) followed[static_cast<size_t>(k)] = true;
  const WorldAnchors& w = place(contacts, R, p);
  near.all = false;
  near.groups.clear();
  near.contacts.clear();
  near.budget.assign(reach.size(), std::numeric_limits<double>::infinity());
  for (size_t k = 0; k < groups_.size(); ++k) {
    const Group& g = groups_[k];
    const double slack = followed[k] || g.pinned ? 0.0 : group_bound(contacts, w, g) - margin;
    const double ra = of(reach, g.body_a), rb = of(reach, g.body_b);
    if (slack > ra + rb) {
      // Left out: its bodies share the slack in proportion to their reach, each at least its
      // reach, so that the two motions together stay below it.
      for (const auto& [body, r] : {std::pair{g.body_a, ra}, std::pair{g.body_b, rb}})
        if (body >= 0) near.budget[static_cast<size_t>(body)] = std::min(near.budget[static_cast<size_t>(body)], slack * r / (ra + rb));
      continue;
    }
    near.groups.push_back(static_cast<int>(k));
    near.contacts.insert(near.contacts.end(), g.contacts.begin(), g.contacts.end());
  }
  std::sort(near.contacts.begin(), near.contacts.end());
  near.R = R;
  near.p = p;
}

double Broadphase::motion(int body, const Mat3& R0, const Vec3& p0, const Mat3& R, const Vec3& p) const {
  const double lever = static_cast<size_t>(body) < lever_.size() ? lever_[static_cast<size_t>(body)] : 0.0;
  return (p - p0).norm() + (R - R0).norm() * lever;
}

bool Broadphase::holds(const NearSet& near, const std::vector<Mat3>& R, const std::vector<Vec3>& p, double fraction,
                       std::vector<int>* over) const {
  if (near.all) return true;
  bool all = true;
  for (size_t b = 0; b < near.budget.size(); ++b) {
    if (motion(static_cast<int>(b), near.R[b], near.p[b], R[b], p[b]) <= fraction * near.budget[b]) continue;  // NaN: not held
    all = false;
    if (!over) return false;
    over->push_back(static_cast<int>(b));
  }
  return all;
}

double Broadphase::bound(const ContactModel& contacts, const std::vector<Mat3>& R, const std::vector<Vec3>& p,
                         int i) const {
  const Group& g = groups_[static_cast<size_t>(group_of_[static_cast<size_t>(i)])];
  return lower_bound(contacts.geometries()[g.geometry_b], R, p, g);
}

double Broadphase::phi(const ContactModel& contacts, double margin, const std::vector<Mat3>& R,
                       const std::vector<Vec3>& p, int i) const {
  const Group& g = groups_[static_cast<size_t>(group_of_[static_cast<size_t>(i)])];
  const Geometry& b = contacts.geometries()[static_cast<size_t>(g.geometry_b)];
  const double group = lower_bound(b, R, p, g);
  if (group > margin) return group;
  const ContactDef& c = contacts.contact(i);
  if (c.geometry_a < 0) {
    const Vec3 normal = b.shape.type == ShapeType::halfspace ? world_normal(b, R) : Vec3::Zero();
    const double own = point_bound(c, b, solid_radius_[static_cast<size_t>(g.geometry_b)],
                                   world_point(R, p, c.body_a, c.point), world_point(R, p, b.body, b.shape.position), normal);
    if (own > margin) return own;
  }
  return contacts.frame(R, p, i).phi;
}

}  // namespace impactsim
