#include "collision/auto_contacts.hpp"

#include <utility>

#include "collision/mesh.hpp"

namespace impactsim {
namespace {

ContactDef point_contact(const std::string& name, const Geometry& a, const Vec3& point, double radius, int b) {
  ContactDef c;
  c.name = name;
  c.body_a = a.body;
  c.point = point;
  c.radius = radius;
  c.geometry_b = b;
  return c;
}

ContactDef shape_pair(const std::vector<Geometry>& geometries, int a, int b) {
  ContactDef c = point_contact(geometries[a].name + "@" + geometries[b].name, geometries[a], geometries[a].shape.position, 0.0, b);
  c.geometry_a = a;
  return c;
}

// Points of a 3-D cylinder's two rims, kRimPoints each, evenly spaced from the shape's +x axis:
// "rim+z0" ... on the +z end, "rim-z0" ... on the -z end. The curved contact (the rim's lowest
// point) cannot hold a cylinder flat: there its point is undefined, and a coin rolling flat on its
// rim whirls it ever faster; four points per rim take the slap of the face and hold it at rest.
constexpr int kRimPoints = 4;
std::vector<PointFeature> rim_points(const Shape& s) {
  std::vector<PointFeature> out;
  for (int end : {1, -1})
    for (int k = 0; k < kRimPoints; ++k) {
      const double angle = 2 * M_PI * k / kRimPoints;
      const Vec3 local(s.radius * std::cos(angle), s.radius * std::sin(angle), end * s.length / 2);
      out.push_back({std::string(end > 0 ? "rim+z" : "rim-z") + std::to_string(k), s.position + s.rotation * local, 0.0});
    }
  return out;
}

// The point features of `a` against a halfspace or (sphere) any solid; one shape-pair contact for a
// shape without point features (with its rim points, for a 3-D cylinder on a halfspace). `a` is
// never a halfspace: pair_contacts puts it second.
std::vector<ContactDef> features_against(const std::vector<Geometry>& geometries, int a, int b, bool planar) {
  const Geometry& ga = geometries[a];
  std::vector<PointFeature> features = point_features(ga.shape, planar);
  std::vector<ContactDef> out;
  if (features.empty()) {
    out.push_back(shape_pair(geometries, a, b));
    if (ga.shape.type == ShapeType::cylinder && geometries[b].shape.type == ShapeType::halfspace)
      features = rim_points(ga.shape);
  }
  for (const PointFeature& k : features)
    out.push_back(point_contact(ga.name + (k.label.empty() ? "" : "." + k.label) + "@" + geometries[b].name, ga,
                                k.point, k.radius, b));
  return out;
}

}  // namespace

std::vector<BoxCorner> box_corners(const Shape& box, bool planar) {
  std::vector<BoxCorner> out;
  const Vec3 h = box.size / 2;
  const int dims = planar ? 2 : 3;
  const char axes[] = {'x', 'y', 'z'};
  for (int k = 0; k < (1 << dims); ++k) {
    const Vec3 signs(k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1);
    std::string label;
    for (int d = 0; d < dims; ++d) label += std::string(signs[d] > 0 ? "+" : "-") + axes[d];
    const Vec3 local(signs.x() * h.x(), signs.y() * h.y(), planar ? 0.0 : signs.z() * h.z());
    out.push_back({label, box.position + box.rotation * local});
  }
  return out;
}

std::vector<PointFeature> point_features(const Shape& s, bool planar) {
  auto at = [&](const Vec3& local) -> Vec3 { return s.position + s.rotation * local; };
  std::vector<PointFeature> out;
  switch (s.type) {
    case ShapeType::sphere: out.push_back({"", at(Vec3::Zero()), s.radius}); break;
    case ShapeType::cylinder:
      if (planar) out.push_back({"", at(Vec3::Zero()), s.radius});
      break;
    case ShapeType::capsule:
      out.push_back({"0", at(Vec3(0, 0, -s.length / 2)), s.radius});
      out.push_back({"1", at(Vec3(0, 0, s.length / 2)), s.radius});
      break;
    case ShapeType::box:
      for (const BoxCorner& k : box_corners(s, planar)) out.push_back({k.label, k.point, 0.0});
      break;
    case ShapeType::convex:
      for (size_t k = 0; k < s.hull->vertices.size(); ++k) out.push_back({std::string("v").append(std::to_string(k)), at(s.hull->vertices[k]), 0.0});
      break;
    case ShapeType::cone:
    case ShapeType::halfspace: break;
  }
  return out;
}

std::vector<ContactDef> pair_contacts(const std::vector<Geometry>& geometries, int g1, int g2, bool planar) {
  const Geometry &x = geometries[g1], &y = geometries[g2];
  if (x.body == y.body) throw std::invalid_argument("shapes '" + x.name + "' and '" + y.name + "' are on one body");
  const ShapeType tx = x.shape.type, ty = y.shape.type;
  if (tx == ShapeType::halfspace && ty == ShapeType::halfspace)
    throw std::invalid_argument("shapes '" + x.name + "' and '" + y.name + "' are both halfspaces");
  // The solid that holds the features first.
  int a = g1, b = g2;
  if (tx == ShapeType::halfspace || (ty == ShapeType::sphere && tx != ShapeType::sphere))
    std::swap(a, b);
  const ShapeType ta = geometries[a].shape.type, tb = geometries[b].shape.type;
  if (tb == ShapeType::halfspace || ta == ShapeType::sphere) return features_against(geometries, a, b, planar);
  if (ta == ShapeType::box && tb == ShapeType::box) {
    std::vector<ContactDef> out = features_against(geometries, a, b, planar);
    for (ContactDef& c : features_against(geometries, b, a, planar)) out.push_back(std::move(c));
    return out;
  }
  return {shape_pair(geometries, a, b)};
}

}  // namespace impactsim
