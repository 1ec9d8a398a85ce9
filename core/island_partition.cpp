#include "core/island_partition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

#include <Eigen/Eigenvalues>

#include "collision/shape_pair.hpp"
#include "collision/sphere_sweep.hpp"

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

// The least t >= 0 at which a distance covered at speed u + g t first reaches d (u, g >= 0, d >= 0):
// u t + g t^2 / 2 = d.
double first_reach(double u, double g, double d) {
  if (d <= 0) return 0.0;
  if (g == 0) return u > 0 ? d / u : std::numeric_limits<double>::infinity();
  return 2 * d / (u + std::sqrt(u * u + 2 * g * d));  // the root without cancellation
}

struct UnionFind {
  explicit UnionFind(int n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int i) { return parent[i] == i ? i : parent[i] = find(parent[i]); }
  void join(int a, int b) { parent[std::max(find(a), find(b))] = std::min(find(a), find(b)); }
  std::vector<int> parent;
};

// The least distance between the geometries `a` and those `b` (indices) at kin [m]; 0 where a pair
// has none.
double least_distance(const System& sys, const Kinematics& kin, const std::vector<int>& a, const std::vector<int>& b) {
  const std::vector<Geometry>& geometries = sys.contacts.geometries();
  double d = std::numeric_limits<double>::infinity();
  for (int ga : a)
    for (int gb : b) {
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

namespace {

// The partition's working state at one pose: bodies' centres, energies and speed bounds, the
// groups so far, and the exact distances measured (each pair once).
class Partitioner {
 public:
  Partitioner(const System& sys, const IslandModel& im, const Kinematics& kin)
      : sys_(sys), im_(im), kin_(kin), n_(static_cast<int>(im.bodies.size())), shapes_(body_geometries(sys)),
        margin_(std::max(1e-5, 10 * sys.contact.distance_tolerance)), centre_(n_), energy_(n_), speed_(n_), groups_(n_) {
    for (size_t g = 0; g < sys.contacts.geometries().size(); ++g)
      if (sys.contacts.geometries()[g].body < 0) world_.push_back(static_cast<int>(g));
    for (int b = 0; b < n_; ++b) {
      const BodyReach& r = im.bodies[b];
      centre_[b] = kin.p[b] + kin.R[b] * sys.model.bodies[b].com;
      energy_[b] = 0.5 * kin.v[b].dot(kin.I_body[b] * kin.v[b]) +
                   r.mass * im.g * (im.up.dot(centre_[b]) - im.ground - r.inscribed);
    }
  }

  // Joins the pairs within reach until none is left: every join raises its group's energy bound.
  void join(const std::vector<int>& previous, double window) {
    for (bool joined = true; joined;) {
      joined = false;
      speeds();
      for (const auto& [a, b] : pairs_within(2 * window)) {
        if (groups_.find(a) == groups_.find(b)) continue;
        const bool together = !previous.empty() && previous[a] == previous[b];
        const double reach = (speed_[a] + speed_[b]) * window * (together ? 2 : 1);
        if (spheres(a, b) > reach || shapes_apart(a, b) > reach) continue;
        groups_.join(a, b);
        joined = true;
      }
    }
  }

  // The least time to touch over the pairs of different groups (infinity where none can, or where
  // it is beyond `longest`): the shapes' own distance where the bounding spheres overlap, then
  // wherever the spheres' bound comes under the least so far, over the pairs that a time t_try
  // can bring within reach, t_try growing until the least is found within it.
  double horizon(double window, double longest) {
    flights();
    double h = std::numeric_limits<double>::infinity();
    const auto closer = [&](int a, int b, bool overlapping) {
      const double s = speed_[a] + speed_[b];
      if (groups_.find(a) == groups_.find(b) || s == 0) return;
      const double bound = spheres(a, b);
      if (overlapping ? bound > 0 : bound / s >= h) return;
      h = std::min(h, time_to_touch(a, b));
    };
    for (const auto& [a, b] : pairs_within(0)) closer(a, b, true);
    for (double t_try = window;; t_try *= 4) {
      const double t = std::isfinite(h) ? h : t_try;
      for (const auto& [a, b] : pairs_within(t)) closer(a, b, false);
      if (h <= t || everyone_within(t)) return h;
      if (t >= longest) return std::numeric_limits<double>::infinity();
    }
  }

  std::vector<int> groups() {
    std::vector<int> group(n_);
    for (int b = 0; b < n_; ++b) group[b] = groups_.find(b);  // the root is the group's smallest body
    return group;
  }

 private:
  void speeds() {
    std::vector<double> group_energy(n_, 0.0);
    for (int b = 0; b < n_; ++b) group_energy[groups_.find(b)] += energy_[b];
    for (int b = 0; b < n_; ++b) {
      const BodyReach& r = im_.bodies[b];
      const double e = std::max(0.0, group_energy[groups_.find(b)]);
      speed_[b] = kSpeedMargin * std::sqrt(2 * e * (1 / r.mass + r.radius * r.radius / r.inertia_min));
    }
  }

  // The pairs whose spheres' bound (below) their speed bounds can close within t: a superset, each
  // body's extent loosened by far more than the rounding that separates the two tests.
  std::vector<std::pair<int, int>> pairs_within(double t) const {
    std::vector<double> extent(n_);
    for (int b = 0; b < n_; ++b) extent[b] = (im_.bodies[b].radius + margin_ / 2 + speed_[b] * std::max(t, 0.0)) * (1 + 1e-9);
    return overlapping_spheres(centre_, extent);
  }

  // Whether every moving body reaches every other within t: then pairs_within(t) holds every pair
  // that could set a horizon.
  bool everyone_within(double t) const {
    Vec3 lo = centre_[0], hi = centre_[0];
    for (const Vec3& c : centre_) {
      lo = lo.cwiseMin(c);
      hi = hi.cwiseMax(c);
    }
    const double span = (hi - lo).norm();
    return std::all_of(speed_.begin(), speed_.end(), [&](double s) { return s == 0 || s * t >= span; });
  }

  // Which bodies fly alone (a group of one, clear of the world's shapes: gravity alone moves it),
  // and until when that lasts at least: the time its bounding sphere needs to cross the gap to the
  // nearest world shape (less the margin) at its centre's speed, gravity's g t^2 / 2 and the
  // fastest turn of a torque-free body, |w| <= sqrt(2 E_rot / I_min).
  void flights() {
    const std::vector<int> group = groups();
    std::vector<int> members(n_, 0);
    for (int b = 0; b < n_; ++b) ++members[group[b]];
    velocity_.assign(n_, Vec3::Zero());
    spin_.assign(n_, 0.0);
    flies_until_.assign(n_, 0.0);
    for (int b = 0; b < n_; ++b) {
      const Body& body = sys_.model.bodies[b];
      const Vec3 w = kin_.v[b].head<3>();
      velocity_[b] = kin_.R[b] * (kin_.v[b].tail<3>() + w.cross(body.com));
      spin_[b] = std::sqrt(std::max(0.0, w.dot(body.inertia * w)) / im_.bodies[b].inertia_min) * im_.bodies[b].radius;
      if (members[group[b]] > 1) continue;
      const double gap = least_distance(sys_, kin_, shapes_[b], world_);
      flies_until_[b] = gap > margin_ ? first_reach(velocity_[b].norm() + spin_[b], im_.g, gap - margin_) : 0.0;
    }
  }

  // The least time for two bodies of different groups to touch, from their distance less the margin
  // E: E / (s_a + s_b) from the energy bound, or where one or both fly, while they fly, from their
  // motion: two flying bodies fall alike, so E closes at most at |v_a - v_b| plus their turns; a
  // flying body against another, at its own speed, turn and g t plus the other's bound.
  double time_to_touch(int a, int b) {
    const double gap = shapes_apart(a, b);
    const double by_energy = gap / (speed_[a] + speed_[b]);
    const bool fa = flies_until_[a] > 0, fb = flies_until_[b] > 0;
    if ((!fa && !fb) || gap <= 0) return by_energy;
    double flight;
    if (fa && fb) {
      const double rate = (velocity_[a] - velocity_[b]).norm() + spin_[a] + spin_[b];
      flight = std::min(gap / rate, std::min(flies_until_[a], flies_until_[b]));
    } else {
      const int f = fa ? a : b, other = fa ? b : a;
      flight = std::min(first_reach(speed_[other] + velocity_[f].norm() + spin_[f], im_.g, gap), flies_until_[f]);
    }
    return std::max(by_energy, flight);
  }

  // A lower bound on the bodies' distance less the margin: their bounding spheres' where that is
  // beyond reach, else the shapes' own (computed once per pair). A horizon from the spheres' alone
  // would shrink without end where they close long before the shapes touch (a ball rolling at a
  // box's face).
  double spheres(int a, int b) const {
    return (centre_[a] - centre_[b]).norm() - im_.bodies[a].radius - im_.bodies[b].radius - margin_;
  }
  double shapes_apart(int a, int b) {
    const auto [it, added] = exact_.try_emplace(static_cast<long>(b) * n_ + a, 0.0);
    if (added) it->second = least_distance(sys_, kin_, shapes_[a], shapes_[b]) - margin_;
    return it->second;
  }

  const System& sys_;
  const IslandModel& im_;
  const Kinematics& kin_;
  const int n_;
  const std::vector<std::vector<int>> shapes_;  // per body, its geometries
  std::vector<int> world_;                       // the world's geometries
  const double margin_;
  std::vector<Vec3> centre_;
  std::vector<double> energy_;  // kinetic, and potential above the lowest it can reach [J]
  std::vector<double> speed_;   // the bound on its points' speed given its group's energy [m/s]
  UnionFind groups_;
  std::unordered_map<long, double> exact_;  // b * n + a -> the bodies' distance less the margin
  std::vector<Vec3> velocity_;       // of its centre of mass, world [m/s]
  std::vector<double> spin_;         // bound on its bounding sphere's speed from turning [m/s]
  std::vector<double> flies_until_;  // [s] from now; 0: it does not fly
};

}  // namespace

Partition partition_islands(const System& sys, const IslandModel& im, const Kinematics& kin,
                            const std::vector<int>& previous, double window, double longest) {
  Partitioner parts(sys, im, kin);
  parts.join(previous, window);
  Partition p;
  p.horizon = parts.horizon(window, longest);
  p.group = parts.groups();
  return p;
}

}  // namespace impactsim
