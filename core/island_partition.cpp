#include "core/island_partition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

#include <Eigen/Eigenvalues>

#include "collision/shape_pair.hpp"

namespace impactsim {
namespace {

// The speed bound's safety factor: the energy of a phase moves by Baumgarte's correction and
// rounding, never by percents.
constexpr double kSpeedMargin = 1.05;

// Least height of a lone shape's centre above a plane it rests on.
double inscribed_height(const Shape& s) {
  switch (s.type) {
    case ShapeType::sphere:
    case ShapeType::capsule: return s.radius;
    case ShapeType::box: return s.size.minCoeff() / 2;
    case ShapeType::cylinder: return std::min(s.radius, s.length / 2);
    default: return 0.0;
  }
}

std::vector<std::vector<int>> body_geometries(const System& sys) {
  std::vector<std::vector<int>> out(sys.model.bodies.size());
  const std::vector<Geometry>& geometries = sys.contacts.geometries();
  for (size_t g = 0; g < geometries.size(); ++g)
    if (geometries[g].body >= 0 && geometries[g].shape.type != ShapeType::halfspace) out[geometries[g].body].push_back(g);
  return out;
}

struct UnionFind {
  explicit UnionFind(int n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int i) { return parent[i] == i ? i : parent[i] = find(parent[i]); }
  void join(int a, int b) { parent[std::max(find(a), find(b))] = std::min(find(a), find(b)); }
  std::vector<int> parent;
};

// The least distance between two bodies' shapes at kin [m]; 0 where a pair has none.
double body_distance(const System& sys, const std::vector<std::vector<int>>& shapes, const Kinematics& kin, int a, int b) {
  const std::vector<Geometry>& geometries = sys.contacts.geometries();
  double d = std::numeric_limits<double>::infinity();
  for (int ga : shapes[a])
    for (int gb : shapes[b]) {
      const PairDistance p = shape_pair_distance(geometries[ga].shape, geometry_pose(geometries[ga], kin.R, kin.p),
                                                 geometries[gb].shape, geometry_pose(geometries[gb], kin.R, kin.p));
      d = std::min(d, p.ok ? p.distance : 0.0);
    }
  return d;
}

}  // namespace

std::optional<IslandModel> island_model(const System& sys) {
  const Model& model = sys.model;
  if (sys.integrator != Integrator::event_driven || model.bodies.size() < 2 || model.gravity.norm() == 0) return std::nullopt;
  for (const ContactDef& c : sys.contacts.contacts())
    if (c.only_ahead_of >= 0) return std::nullopt;
  IslandModel im;
  im.g = model.gravity.norm();
  im.up = -model.gravity / im.g;
  bool ground = false;
  im.ground = -std::numeric_limits<double>::infinity();
  for (const Geometry& g : sys.contacts.geometries()) {
    if (g.body >= 0 || g.shape.type != ShapeType::halfspace) continue;
    const Vec3 n = g.shape.rotation * g.shape.normal;
    if (n.dot(im.up) < 1 - 1e-9) continue;
    ground = true;
    im.ground = std::max(im.ground, g.shape.offset + n.dot(g.shape.position));
  }
  if (!ground) return std::nullopt;
  const std::vector<std::vector<int>> shapes = body_geometries(sys);
  for (size_t b = 0; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    if (body.parent != -1 || body.joint.type != JointType::free || !(body.mass > 0)) return std::nullopt;
    BodyReach r;
    r.mass = body.mass;
    r.inertia_min = Eigen::SelfAdjointEigenSolver<Mat3>(body.inertia, Eigen::EigenvaluesOnly).eigenvalues().minCoeff();
    if (!(r.inertia_min > 0)) return std::nullopt;
    for (int g : shapes[b]) {
      const Shape& s = sys.contacts.geometries()[g].shape;
      r.radius = std::max(r.radius, (s.position - body.com).norm() + bounding_radius(s));
    }
    if (shapes[b].size() == 1) {
      const Shape& s = sys.contacts.geometries()[shapes[b][0]].shape;
      if ((s.position - body.com).norm() < 1e-12) r.inscribed = inscribed_height(s);
    }
    im.bodies.push_back(r);
  }
  return im;
}

Partition partition_islands(const System& sys, const IslandModel& im, const Kinematics& kin,
                            const std::vector<int>& previous, double window) {
  const int n = static_cast<int>(im.bodies.size());
  const double margin = std::max(1e-5, 10 * sys.contact.distance_tolerance);
  const std::vector<std::vector<int>> shapes = body_geometries(sys);
  std::vector<Vec3> centre(n);
  std::vector<double> energy(n);  // kinetic, and potential above the lowest it can reach [J]
  for (int b = 0; b < n; ++b) {
    const BodyReach& r = im.bodies[b];
    centre[b] = kin.p[b] + kin.R[b] * sys.model.bodies[b].com;
    energy[b] = 0.5 * kin.v[b].dot(kin.I_body[b] * kin.v[b]) +
                r.mass * im.g * (im.up.dot(centre[b]) - im.ground - r.inscribed);
  }
  UnionFind groups(n);
  std::unordered_map<long, double> exact;  // b * n + a -> the bodies' distance less the margin
  std::vector<double> speed(n);
  const auto speeds = [&] {
    std::vector<double> group_energy(n, 0.0);
    for (int b = 0; b < n; ++b) group_energy[groups.find(b)] += energy[b];
    for (int b = 0; b < n; ++b) {
      const BodyReach& r = im.bodies[b];
      const double e = std::max(0.0, group_energy[groups.find(b)]);
      speed[b] = kSpeedMargin * std::sqrt(2 * e * (1 / r.mass + r.radius * r.radius / r.inertia_min));
    }
  };
  // A lower bound on the bodies' distance less the margin: their bounding spheres' where that is
  // beyond reach, else the shapes' own (once computed, always). A horizon from the spheres' alone
  // would shrink without end where they close long before the shapes touch (a ball rolling at a
  // box's face).
  const auto spheres = [&](int a, int b) {
    return (centre[a] - centre[b]).norm() - im.bodies[a].radius - im.bodies[b].radius - margin;
  };
  const auto shapes_apart = [&](int a, int b) {
    const auto [it, added] = exact.try_emplace(static_cast<long>(b) * n + a, 0.0);
    if (added) it->second = body_distance(sys, shapes, kin, a, b) - margin;
    return it->second;
  };
  const auto distance = [&](int a, int b, double reach) {
    if (const auto it = exact.find(static_cast<long>(b) * n + a); it != exact.end()) return it->second;
    const double bound = spheres(a, b);
    return bound > reach ? bound : shapes_apart(a, b);
  };
  for (bool joined = true; joined;) {
    joined = false;
    speeds();
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b) {
        if (groups.find(a) == groups.find(b)) continue;
        const bool together = !previous.empty() && previous[a] == previous[b];
        const double reach = (speed[a] + speed[b]) * window * (together ? 2 : 1);
        if (distance(a, b, reach) > reach) continue;
        groups.join(a, b);
        joined = true;
      }
  }
  Partition p;
  p.horizon = std::numeric_limits<double>::infinity();
  // The least time to touch over the pairs of different groups: the shapes' own distance where the
  // bounding spheres overlap, then wherever the spheres' bound comes under the least so far.
  for (int pass = 0; pass < 2; ++pass)
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b) {
        const double s = speed[a] + speed[b];
        if (groups.find(a) == groups.find(b) || s == 0) continue;
        const double bound = spheres(a, b);
        if (pass == 0 ? bound > 0 : bound / s >= p.horizon) continue;
        p.horizon = std::min(p.horizon, shapes_apart(a, b) / s);
      }
  p.group.resize(n);
  for (int b = 0; b < n; ++b) p.group[b] = groups.find(b);  // the root is the group's smallest body
  return p;
}

}  // namespace impactsim
