#include "collision/shape.hpp"

#include "collision/mesh.hpp"

#include <cmath>
#include <limits>
#include <numbers>

namespace impactsim {
namespace {

constexpr double pi = std::numbers::pi;

// Rotational inertia about the centroid, shape axes, per unit density.
Mat3 unit_density_inertia(const Shape& s, double volume) {
  const double m = volume, r2 = s.radius * s.radius, L = s.length;
  switch (s.type) {
    case ShapeType::box: {
      const Vec3 l2 = s.size.cwiseProduct(s.size);
      return Vec3(l2.y() + l2.z(), l2.x() + l2.z(), l2.x() + l2.y()).asDiagonal() * (m / 12.0);
    }
    case ShapeType::sphere: return Mat3::Identity() * (0.4 * m * r2);
    case ShapeType::cylinder: {
      const double side = m * (3 * r2 + L * L) / 12.0;
      return Vec3(side, side, 0.5 * m * r2).asDiagonal();
    }
    case ShapeType::capsule: {
      // Cylinder plus two hemispheres whose centroids sit 3r/8 beyond the cylinder's ends.
      const double m_cyl = pi * r2 * L, m_hemi = 2.0 / 3.0 * pi * r2 * s.radius;
      const double axial = 0.5 * m_cyl * r2 + 2 * 0.4 * m_hemi * r2;
      const double side = m_cyl * (3 * r2 + L * L) / 12.0 +
                          2 * m_hemi * (0.4 * r2 + L * L / 4 + 3.0 * L * s.radius / 8);
      return Vec3(side, side, axial).asDiagonal();
    }
    case ShapeType::cone: {
      const double side = m * (3.0 / 20.0 * r2 + 3.0 / 80.0 * L * L);
      return Vec3(side, side, 0.3 * m * r2).asDiagonal();
    }
    case ShapeType::halfspace:
    case ShapeType::convex: break;  // shape_mass_properties takes the mesh's own
  }
  return Mat3::Zero();
}

}  // namespace

std::string_view shape_type_name(ShapeType type) {
  switch (type) {
    case ShapeType::box: return "box";
    case ShapeType::sphere: return "sphere";
    case ShapeType::cylinder: return "cylinder";
    case ShapeType::capsule: return "capsule";
    case ShapeType::halfspace: return "halfspace";
    case ShapeType::convex: return "convex";
    case ShapeType::cone: return "cone";
  }
  return "?";
}

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

double shape_volume(const Shape& s) {
  const double r = s.radius;
  switch (s.type) {
    case ShapeType::box: return s.size.prod();
    case ShapeType::sphere: return 4.0 / 3.0 * pi * r * r * r;
    case ShapeType::cylinder: return pi * r * r * s.length;
    case ShapeType::capsule: return pi * r * r * s.length + 4.0 / 3.0 * pi * r * r * r;
    case ShapeType::halfspace: return std::numeric_limits<double>::infinity();
    case ShapeType::convex: return mesh_volume(*s.hull);
    case ShapeType::cone: return pi * r * r * s.length / 3.0;
  }
  return 0.0;
}

MassProperties shape_mass_properties(const Shape& s, double density) {
  if (s.type == ShapeType::convex) {
    MassProperties p = mesh_mass_properties(*s.hull, density);
    p.com = s.position + s.rotation * p.com;
    p.inertia = s.rotation * p.inertia * s.rotation.transpose();
    return p;
  }
  const double volume = shape_volume(s);
  MassProperties p;
  p.mass = density * volume;
  p.com = s.type == ShapeType::cone ? Vec3(s.position + s.rotation * Vec3(0, 0, -s.length / 4)) : s.position;
  p.inertia = density * s.rotation * unit_density_inertia(s, volume) * s.rotation.transpose();
  return p;
}

MassProperties combine_mass_properties(const std::vector<MassProperties>& parts) {
  MassProperties total;
  for (const auto& p : parts) {
    total.mass += p.mass;
    total.com += p.mass * p.com;
  }
  if (total.mass > 0) total.com /= total.mass;
  for (const auto& p : parts) {
    const Vec3 d = p.com - total.com;
    total.inertia += p.inertia + p.mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  }
  return total;
}

}  // namespace impactsim
