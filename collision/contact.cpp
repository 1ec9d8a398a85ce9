#include "collision/contact.hpp"

#include <cmath>

#include <Eigen/Geometry>

#include "collision/shape_pair.hpp"

namespace impactsim {
namespace {

// Signed distance to an axis-aligned box (or 2-D rectangle, via z half-extent) of half extents h.
PointDistance point_to_box(const Vec3& x, const Vec3& h) {
  const Vec3 q = x.cwiseAbs() - h;
  const Vec3 outside = q.cwiseMax(0.0);
  if (outside.squaredNorm() > 0) {
    const double d = outside.norm();
    return {d, outside.cwiseProduct(x.cwiseSign()) / d};
  }
  int axis = 0;
  const double inside = q.maxCoeff(&axis);
  Vec3 g = Vec3::Zero();
  g[axis] = x[axis] >= 0 ? 1.0 : -1.0;
  return {inside, g};
}

// The same in two dimensions (rho, z) for solids of revolution about z.
PointDistance point_to_rectangle_of_revolution(const Vec3& x, double r, double half_length) {
  const double rho = std::hypot(x.x(), x.y());
  const Vec3 radial = rho > 1e-300 ? Vec3(x.x() / rho, x.y() / rho, 0) : Vec3::UnitX();
  const PointDistance d2 = point_to_box(Vec3(rho, x.z(), 0), Vec3(r, half_length, 1e300));
  return {d2.distance, d2.gradient.x() * radial + Vec3(0, 0, d2.gradient.y())};
}

Vec3 unit_or(const Vec3& v, const Vec3& fallback) {
  const double n = v.norm();
  return n > 1e-300 ? Vec3(v / n) : fallback;
}

}  // namespace

PointDistance point_to_shape(const Shape& s, const Vec3& x) {
  switch (s.type) {
    case ShapeType::halfspace: return {s.normal.dot(x) - s.offset, s.normal};
    case ShapeType::sphere: return {x.norm() - s.radius, unit_or(x, Vec3::UnitZ())};
    case ShapeType::box: return point_to_box(x, s.size / 2);
    case ShapeType::capsule: {
      const Vec3 axis_point(0, 0, std::clamp(x.z(), -s.length / 2, s.length / 2));
      return {(x - axis_point).norm() - s.radius, unit_or(x - axis_point, Vec3::UnitX())};
    }
    case ShapeType::cylinder: return point_to_rectangle_of_revolution(x, s.radius, s.length / 2);
  }
  return {0.0, Vec3::UnitZ()};
}

ContactModel::ContactModel(std::vector<Geometry> geometries, std::vector<ContactDef> contacts, bool planar)
    : geometries_(std::move(geometries)), contacts_(std::move(contacts)), planar_(planar) {}

Pose geometry_pose(const Geometry& g, const std::vector<Mat3>& R, const std::vector<Vec3>& p) {
  if (g.body < 0) return {g.shape.rotation, g.shape.position};
  return {R[g.body] * g.shape.rotation, p[g.body] + R[g.body] * g.shape.position};
}

ContactFrame ContactModel::frame(const std::vector<Mat3>& Rb, const std::vector<Vec3>& pb, int i) const {
  const ContactDef& c = contacts_[i];
  const Geometry& g = geometries_[c.geometry_b];
  const Pose b = geometry_pose(g, Rb, pb);
  ContactFrame f;
  if (c.geometry_a >= 0) {
    // Two halfspaces are refused when the contact is made, and the search behind FCL never fails,
    // so d.ok holds.
    const PairDistance d = shape_pair_distance(geometries_[c.geometry_a].shape, geometry_pose(geometries_[c.geometry_a], Rb, pb),
                                               g.shape, b);
    f.normal = d.normal;
    if (planar_) f.normal = unit_or(Vec3(f.normal.x(), f.normal.y(), 0), Vec3::UnitY());
    f.phi = d.distance;
    f.point_a = d.point_a;
    f.point_b = d.point_b;
  } else {
    const Vec3 x = c.body_a < 0 ? c.point : Vec3(pb[c.body_a] + Rb[c.body_a] * c.point);
    const PointDistance d = point_to_shape(g.shape, b.R.transpose() * (x - b.p));
    f.normal = b.R * d.gradient;
    if (planar_) f.normal = unit_or(Vec3(f.normal.x(), f.normal.y(), 0), Vec3::UnitY());
    f.phi = d.distance - c.radius;
    f.point_a = x - c.radius * f.normal;
    f.point_b = x - d.distance * f.normal;
  }
  if (planar_) {
    f.tangent1 = Vec3(f.normal.y(), -f.normal.x(), 0);
    f.tangent2 = Vec3::UnitZ();
  } else {
    const Vec3 seed = std::abs(f.normal.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
    f.tangent1 = (seed - seed.dot(f.normal) * f.normal).normalized();
    f.tangent2 = f.normal.cross(f.tangent1);
  }
  return f;
}

}  // namespace impactsim
