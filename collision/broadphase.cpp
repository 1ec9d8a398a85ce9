#include "collision/broadphase.hpp"

#include <cmath>

#include "collision/mesh.hpp"

namespace impactsim {
namespace {

double bounding_radius(const Shape& s) {
  switch (s.type) {
    case ShapeType::sphere: return s.radius;
    case ShapeType::box: return s.size.norm() / 2;
    case ShapeType::capsule: return s.radius + s.length / 2;
    case ShapeType::cylinder:
    case ShapeType::cone: return std::hypot(s.radius, s.length / 2);
    case ShapeType::halfspace: return 0.0;
    case ShapeType::convex: {
      double r = 0.0;
      for (const Vec3& v : s.hull->vertices) r = std::max(r, v.norm());
      return r;
    }
  }
  return 0.0;
}

Vec3 world_point(const std::vector<Mat3>& R, const std::vector<Vec3>& p, int body, const Vec3& x) {
  return body < 0 ? x : Vec3(p[body] + R[body] * x);
}

}  // namespace

Broadphase::Broadphase(const ContactModel& contacts) {
  for (const Geometry& g : contacts.geometries()) solid_radius_.push_back(bounding_radius(g.shape));
  for (int i = 0; i < contacts.size(); ++i) {
    const ContactDef& c = contacts.contact(i);
    Group* group = nullptr;
    for (Group& g : groups_)
      if (g.body_a == c.body_a && g.geometry_b == c.geometry_b) group = &g;
    if (!group) {
      groups_.push_back({c.body_a, c.geometry_b, Vec3::Zero(), 0.0, {}});
      group = &groups_.back();
    }
    group->contacts.push_back(i);
  }
  group_of_.assign(static_cast<size_t>(contacts.size()), -1);
  for (size_t k = 0; k < groups_.size(); ++k)
    for (int i : groups_[k].contacts) group_of_[static_cast<size_t>(i)] = static_cast<int>(k);
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
  }
}

double Broadphase::lower_bound(const Geometry& b, const std::vector<Mat3>& Rb, const std::vector<Vec3>& pb,
                               const Group& g) const {
  const Vec3 center = world_point(Rb, pb, g.body_a, g.center);
  const Vec3 origin = world_point(Rb, pb, b.body, b.shape.position);
  if (b.shape.type == ShapeType::halfspace) {
    const Mat3 R = b.body < 0 ? b.shape.rotation : Mat3(Rb[b.body] * b.shape.rotation);
    return (R * b.shape.normal).dot(center - origin) - b.shape.offset - g.radius;
  }
  return (center - origin).norm() - g.radius - solid_radius_[g.geometry_b];
}

int Broadphase::update(const ContactModel& contacts, double margin, const std::vector<Mat3>& R,
                       const std::vector<Vec3>& p, std::vector<ContactFrame>& frames) const {
  int exact = 0;
  for (const Group& g : groups_) {
    const double bound = lower_bound(contacts.geometries()[g.geometry_b], R, p, g);
    if (bound > margin) {
      for (int i : g.contacts) frames[i].phi = bound;
      continue;
    }
    for (int i : g.contacts) frames[i] = contacts.frame(R, p, i);
    exact += static_cast<int>(g.contacts.size());
  }
  return exact;
}

double Broadphase::bound(const ContactModel& contacts, const std::vector<Mat3>& R, const std::vector<Vec3>& p,
                         int i) const {
  const Group& g = groups_[static_cast<size_t>(group_of_[static_cast<size_t>(i)])];
  return lower_bound(contacts.geometries()[g.geometry_b], R, p, g);
}

double Broadphase::phi(const ContactModel& contacts, double margin, const std::vector<Mat3>& R,
                       const std::vector<Vec3>& p, int i) const {
  const double b = bound(contacts, R, p, i);
  return b > margin ? b : contacts.frame(R, p, i).phi;
}

}  // namespace impactsim
