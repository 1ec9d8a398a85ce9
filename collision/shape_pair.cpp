#include "collision/shape_pair.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <Eigen/Geometry>

#include "collision/contact.hpp"
#include "collision/support.hpp"

namespace impactsim {
namespace {

// The same query with A and B exchanged, turned back into A-against-B terms.
PairDistance flipped(PairDistance d) {
  d.normal = -d.normal;
  std::swap(d.point_a, d.point_b);
  return d;
}

PairDistance exact(double distance, const Vec3& normal, const Vec3& point_a, const Vec3& point_b) {
  PairDistance d;
  d.ok = true;
  d.distance = distance;
  d.normal = normal;
  d.point_a = point_a;
  d.point_b = point_b;
  return d;
}

// A unit vector across `axis`.
Vec3 any_perpendicular(const Vec3& axis) {
  const Vec3 seed = std::abs(axis.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  return axis.cross(seed).normalized();
}

// Solid A against halfspace H: A's lowest point along H's outward normal.
PairDistance solid_halfspace(const Shape& a, const Pose& pa, const Shape& h, const Pose& ph) {
  const Vec3 n = (ph.R * h.normal).normalized();
  const double offset = h.offset / h.normal.norm() + n.dot(ph.p);
  const Vec3 lowest = pa.p + pa.R * support_point(a, -(pa.R.transpose() * n));
  const double distance = n.dot(lowest) - offset;
  return exact(distance, n, lowest, lowest - distance * n);
}

// Sphere A against any solid B but a halfspace: the distance of A's centre to B, less the radius.
PairDistance sphere_solid(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  const PointDistance d = point_to_shape(b, pb.R.transpose() * (pa.p - pb.p));
  const Vec3 n = pb.R * d.gradient;
  return exact(d.distance - a.radius, n, pa.p - a.radius * n, pa.p - d.distance * n);
}

struct Segment {
  Vec3 p0, p1;
};

Segment capsule_axis(const Shape& s, const Pose& pose) {
  const Vec3 half = pose.R.col(2) * (s.length / 2);
  return {pose.p - half, pose.p + half};
}

PairDistance capsule_capsule(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  const Segment sa = capsule_axis(a, pa), sb = capsule_axis(b, pb);
  Vec3 ca, cb;
  closest_points_of_segments(sa.p0, sa.p1, sb.p0, sb.p1, ca, cb);
  const Vec3 gap = ca - cb;
  const double length = gap.norm();
  // Crossing axes: any normal to both is a shortest way apart.
  Vec3 n = gap / length;
  if (!(length > 1e-12 * (a.radius + b.radius))) {
    const Vec3 across = pa.R.col(2).cross(pb.R.col(2));
    n = across.norm() > 1e-9 ? Vec3(across.normalized()) : any_perpendicular(pa.R.col(2));
  }
  return exact(length - a.radius - b.radius, n, ca - a.radius * n, cb + b.radius * n);
}

// A box as eight corners and twelve edges in the world. Corner k has the signs of bits 0, 1, 2 of k
// along the box's x, y, z; an edge joins two corners one bit apart.
struct WorldBox {
  std::array<Vec3, 8> corner;
  explicit WorldBox(const Shape& s, const Pose& pose) {
    for (int k = 0; k < 8; ++k) {
      const Vec3 local((k & 1 ? 0.5 : -0.5) * s.size.x(), (k & 2 ? 0.5 : -0.5) * s.size.y(),
                       (k & 4 ? 0.5 : -0.5) * s.size.z());
      corner[k] = pose.p + pose.R * local;
    }
  }
  template <class F>
  void for_each_edge(F f) const {
    for (int bit = 1; bit < 8; bit <<= 1)
      for (int k = 0; k < 8; ++k)
        if (!(k & bit)) f(corner[k], corner[k | bit]);
  }
};

// The separating axis along which the boxes are farthest apart (or least overlapping), oriented
// from B to A, and that gap (Gottschalk, Lin and Manocha 1996: 3 + 3 face normals, 9 edge crosses).
struct Axis {
  Vec3 u;
  double gap;
};

Axis best_separating_axis(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  const Vec3 d = pa.p - pb.p;
  Axis best{Vec3::UnitZ(), -std::numeric_limits<double>::infinity()};
  auto consider = [&](Vec3 u) {
    const double norm = u.norm();
    if (norm < 1e-9) return;  // parallel edges: their cross is no axis
    u /= norm;
    if (u.dot(d) < 0) u = -u;
    const double ha = (a.size.array() / 2 * (pa.R.transpose() * u).array().abs()).sum();
    const double hb = (b.size.array() / 2 * (pb.R.transpose() * u).array().abs()).sum();
    const double gap = u.dot(d) - ha - hb;
    if (gap > best.gap) best = {u, gap};
  };
  for (int i = 0; i < 3; ++i) consider(pa.R.col(i));
  for (int j = 0; j < 3; ++j) consider(pb.R.col(j));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) consider(pa.R.col(i).cross(pb.R.col(j)));
  return best;
}

// Apart: the nearest pair among corner-solid and edge-edge pairs, which holds the nearest points
// of two convex polyhedra. Overlapping: the penetration is the least overlap over the separating
// axes, exact for boxes.
PairDistance box_box(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  const Axis axis = best_separating_axis(a, pa, b, pb);
  if (axis.gap <= 0) {
    const Vec3 deepest = pa.p + pa.R * support_point(a, -(pa.R.transpose() * axis.u));
    return exact(axis.gap, axis.u, deepest, deepest - axis.gap * axis.u);
  }
  const WorldBox wa(a, pa), wb(b, pb);
  double best = std::numeric_limits<double>::infinity();
  Vec3 best_a = Vec3::Zero(), best_b = Vec3::Zero();
  auto keep = [&](const Vec3& x_a, const Vec3& x_b) {
    const double distance = (x_a - x_b).norm();
    if (distance < best) best = distance, best_a = x_a, best_b = x_b;
  };
  for (const Vec3& x : wa.corner) {
    const PointDistance d = point_to_shape(b, pb.R.transpose() * (x - pb.p));
    keep(x, x - d.distance * (pb.R * d.gradient));
  }
  for (const Vec3& x : wb.corner) {
    const PointDistance d = point_to_shape(a, pa.R.transpose() * (x - pa.p));
    keep(x - d.distance * (pa.R * d.gradient), x);
  }
  wa.for_each_edge([&](const Vec3& p0, const Vec3& p1) {
    wb.for_each_edge([&](const Vec3& q0, const Vec3& q1) {
      Vec3 ca, cb;
      closest_points_of_segments(p0, p1, q0, q1, ca, cb);
      keep(ca, cb);
    });
  });
  // Barely apart, the nearest points no longer give a direction; the best axis still does.
  const Vec3 n = best > 1e-12 * (a.size.norm() + b.size.norm()) ? Vec3((best_a - best_b) / best) : axis.u;
  return exact(best, n, best_a, best_b);
}

// min over A of u.x - max over B of u.x: the gap between the solids' shadows on u (negative: overlap).
// Every u gives a lower bound of the signed distance, and the best u gives it.
double gap_along(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, const Vec3& u) {
  return u.dot(pa.p - pb.p) - support_value(a, -(pa.R.transpose() * u)) - support_value(b, pb.R.transpose() * u);
}

// Overlapping solids with no exact form: the direction of least overlap, searched from seeds (each
// solid's axes, their crosses, the line between the origins, 200 directions spread over the
// sphere) by a pattern search on the sphere. The depth it reports is the overlap along the
// direction found, so it is never less than the true depth (any direction's overlap is at least
// the depth). It can stall on a ridge of g (an edge or rim) a little short of the best direction:
// tests/collision/shape_pair_test.cpp bounds how much too deep against a dense search of directions.
PairDistance least_overlap(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  constexpr int kStarts = 12;
  std::array<std::pair<double, Vec3>, kStarts> starts;  // the best seeds, best first
  starts.fill({-std::numeric_limits<double>::infinity(), Vec3::UnitZ()});
  auto seed = [&](const Vec3& u) {
    if (!(u.norm() > 1e-9)) return;
    for (const Vec3& w : {Vec3(u.normalized()), Vec3(-u.normalized())}) {
      const double g = gap_along(a, pa, b, pb, w);
      if (g <= starts.back().first) continue;
      starts.back() = {g, w};
      std::sort(starts.begin(), starts.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    }
  };
  for (int i = 0; i < 3; ++i) {
    seed(pa.R.col(i));
    seed(pb.R.col(i));
    for (int j = 0; j < 3; ++j) seed(pa.R.col(i).cross(pb.R.col(j)));
  }
  seed(pa.p - pb.p);
  const int spread = 200;
  const double golden = std::acos(-1.0) * (3 - std::sqrt(5.0));
  for (int i = 0; i < spread; ++i) {
    const double z = 1 - 2 * (i + 0.5) / spread, r = std::sqrt(1 - z * z);
    seed(Vec3(r * std::cos(golden * i), r * std::sin(golden * i), z));
  }
  // Pattern search from each start; the eight directions of a sweep turn by the golden angle from
  // one sweep to the next, which frees it from most ridges.
  double best = -std::numeric_limits<double>::infinity();
  Vec3 best_u = Vec3::UnitZ();
  for (auto [value, u] : starts) {
    if (!std::isfinite(value)) continue;
    double turn = 0;
    for (double step = 0.1; step > 1e-12; step /= 2) {
      for (int sweep = 0, still = 0; sweep < 60 && still < 3; ++sweep) {
        const Vec3 e1 = u.unitOrthogonal(), e2 = u.cross(e1);
        const double before = value;
        for (int k = 0; k < 8; ++k) {
          const double angle = turn + k * std::acos(-1.0) / 4;
          const Vec3 w = (u + step * (std::cos(angle) * e1 + std::sin(angle) * e2)).normalized();
          const double g = gap_along(a, pa, b, pb, w);
          if (g > value) value = g, u = w;
        }
        turn += golden;
        still = value == before ? still + 1 : 0;
      }
    }
    if (value > best) best = value, best_u = u;
  }
  const Vec3 deepest = pa.p + pa.R * support_point(a, -(pa.R.transpose() * best_u));
  PairDistance d = exact(best, best_u, deepest, deepest - best * best_u);
  d.method = DistanceMethod::overlap_search;
  return d;
}

// Apart, FCL's GJK; overlapping or touching, the search above (FCL's EPA can abort the process).
PairDistance by_fcl(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  const FclDistance f = fcl_gjk_distance(a, pa, b, pb);
  PairDistance d;
  d.method = DistanceMethod::fcl;
  const Vec3 gap = f.point_a - f.point_b;
  // Where GJK fails, the search answers too: for convex solids apart, the best direction's gap is
  // the distance (the separating-axis theorem), found to the search's precision.
  if (!f.ok || !(f.distance > 1e-9) || !(gap.norm() > 1e-9)) return least_overlap(a, pa, b, pb);
  d.ok = true;
  d.distance = f.distance;
  d.point_a = f.point_a;
  d.point_b = f.point_b;
  d.normal = gap.normalized();
  return d;
}

}  // namespace

void closest_points_of_segments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, Vec3& c_p,
                                Vec3& c_q) {
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  const double tiny = 1e-300;
  double s = 0, t = 0;
  if (a <= tiny && e <= tiny) {
    s = t = 0;
  } else if (a <= tiny) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= tiny) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), denom = a * e - b * b;
      s = denom > 0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  c_p = p0 + s * d1;
  c_q = q0 + t * d2;
}

PairDistance shape_pair_distance(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  const ShapeType ta = a.type, tb = b.type;
  if (ta == ShapeType::halfspace && tb == ShapeType::halfspace) {
    PairDistance d;
    d.error = "two halfspaces have no signed distance";
    return d;
  }
  if (tb == ShapeType::halfspace) return solid_halfspace(a, pa, b, pb);
  if (ta == ShapeType::halfspace) return flipped(solid_halfspace(b, pb, a, pa));
  if (ta == ShapeType::sphere) return sphere_solid(a, pa, b, pb);
  if (tb == ShapeType::sphere) return flipped(sphere_solid(b, pb, a, pa));
  if (ta == ShapeType::capsule && tb == ShapeType::capsule) return capsule_capsule(a, pa, b, pb);
  if (ta == ShapeType::box && tb == ShapeType::box) return box_box(a, pa, b, pb);
  return by_fcl(a, pa, b, pb);
}

}  // namespace impactsim
