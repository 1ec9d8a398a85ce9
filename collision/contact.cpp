#include "collision/contact.hpp"

#include <cmath>
#include <limits>

#include <Eigen/Geometry>

#include "collision/mesh.hpp"
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

// The point of triangle (a, b, c) closest to p (Ericson, Real-Time Collision Detection, sec. 5.1.5).
Vec3 closest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + d1 / (d1 - d3) * ab;
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + d2 / (d2 - d6) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  const double denom = 1 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

// Signed distance to a convex polyhedron: inside, the nearest face plane (the largest plane
// distance); outside, the nearest point of the surface.
PointDistance point_to_convex(const TriangleMesh& hull, const Vec3& x) {
  double plane = -std::numeric_limits<double>::infinity();
  Vec3 plane_normal = Vec3::UnitZ();
  for (const auto& t : hull.triangles) {
    const Vec3 &a = hull.vertices[t[0]], &b = hull.vertices[t[1]], &c = hull.vertices[t[2]];
    const Vec3 n = (b - a).cross(c - a).normalized();
    const double d = n.dot(x - a);
    if (d > plane) plane = d, plane_normal = n;
  }
  if (plane <= 0) return {plane, plane_normal};
  double best = std::numeric_limits<double>::infinity();
  Vec3 nearest = x;
  for (const auto& t : hull.triangles) {
    const Vec3 c = closest_on_triangle(x, hull.vertices[t[0]], hull.vertices[t[1]], hull.vertices[t[2]]);
    const double d = (x - c).squaredNorm();
    if (d < best) best = d, nearest = c;
  }
  const double distance = std::sqrt(best);
  return {distance, distance > 1e-300 ? Vec3((x - nearest) / distance) : plane_normal};
}

// Signed distance to a cone of base radius r at z = -h and apex at z = +h, in its half-plane
// (rho, z), rho >= 0: the triangle (0, -h), (r, -h), (0, h), whose boundary there is the base and
// the slant side.
PointDistance point_to_cone(const Vec3& x, double r, double h) {
  const double rho = std::hypot(x.x(), x.y());
  const Vec3 radial = rho > 1e-300 ? Vec3(x.x() / rho, x.y() / rho, 0) : Vec3::UnitX();
  const Eigen::Vector2d p(rho, x.z()), base0(0, -h), rim(r, -h), apex(0, h);
  const Eigen::Vector2d slant_normal = Eigen::Vector2d(2 * h, r).normalized();
  const double to_base = -h - p.y(), to_slant = slant_normal.dot(p - rim);
  auto to_3d = [&](const Eigen::Vector2d& g) { return Vec3(g.x() * radial + Vec3(0, 0, g.y())); };
  if (to_base <= 0 && to_slant <= 0)
    return to_base >= to_slant ? PointDistance{to_base, Vec3(0, 0, -1)} : PointDistance{to_slant, to_3d(slant_normal)};
  auto nearest_on = [&](const Eigen::Vector2d& a, const Eigen::Vector2d& b) -> Eigen::Vector2d {
    const Eigen::Vector2d d = b - a;
    return a + std::clamp((p - a).dot(d) / d.squaredNorm(), 0.0, 1.0) * d;
  };
  const Eigen::Vector2d on_base = nearest_on(base0, rim), on_slant = nearest_on(rim, apex);
  const Eigen::Vector2d nearest = (p - on_base).squaredNorm() <= (p - on_slant).squaredNorm() ? on_base : on_slant;
  const double distance = (p - nearest).norm();
  return {distance, distance > 1e-300 ? to_3d((p - nearest) / distance) : to_3d(slant_normal)};
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
    case ShapeType::convex: return point_to_convex(*s.hull, x);
    case ShapeType::cone: return point_to_cone(x, s.radius, s.length / 2);
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
    const Vec3 seed = tangent_seed(f.normal);
    f.tangent1 = (seed - seed.dot(f.normal) * f.normal).normalized();
    f.tangent2 = f.normal.cross(f.tangent1);
  }
  return f;
}

}  // namespace impactsim
