#include "collision/support.hpp"

#include "collision/mesh.hpp"

#include <cmath>
#include <stdexcept>

namespace impactsim {
namespace {

// +1 or -1 by the sign of x, 0 where |x| is below `tie` (a face or edge facing u: take its centre).
double side(double x, double tie) { return x > tie ? 1.0 : (x < -tie ? -1.0 : 0.0); }

}  // namespace

Vec3 support_point(const Shape& s, const Vec3& u) {
  const double tie = 1e-12 * u.norm();
  switch (s.type) {
    case ShapeType::sphere: return s.radius * u.normalized();
    case ShapeType::box:
      return Vec3(side(u.x(), tie) * s.size.x(), side(u.y(), tie) * s.size.y(), side(u.z(), tie) * s.size.z()) / 2;
    case ShapeType::capsule: return Vec3(0, 0, side(u.z(), tie) * s.length / 2) + s.radius * u.normalized();
    case ShapeType::cylinder: {
      const double radial = std::hypot(u.x(), u.y());
      Vec3 p(0, 0, side(u.z(), tie) * s.length / 2);
      if (radial > tie) p.head<2>() = s.radius * u.head<2>() / radial;
      return p;
    }
    case ShapeType::cone: {
      // The apex, or the base rim's point furthest along u (the base's centre where u is axial).
      const double radial = std::hypot(u.x(), u.y()), h = s.length / 2;
      Vec3 rim(0, 0, -h);
      if (radial > tie) rim.head<2>() = s.radius * u.head<2>() / radial;
      const Vec3 apex(0, 0, h);
      return u.dot(apex) >= u.dot(rim) - tie ? apex : rim;
    }
    case ShapeType::convex: {
      // The first vertex of greatest u . x: ties (a face or edge facing u) go to the lowest index.
      const std::vector<Vec3>& v = s.hull->vertices;
      size_t best = 0;
      for (size_t i = 1; i < v.size(); ++i)
        if (u.dot(v[i]) > u.dot(v[best]) + tie) best = i;
      return v[best];
    }
    case ShapeType::halfspace: break;
  }
  throw std::invalid_argument("a halfspace has no support point");
}

}  // namespace impactsim
