#include "collision/manifold.hpp"

#include <array>
#include <cmath>

namespace impactsim {
namespace {

// Built by appending: g++ 12 warns (-Wrestrict, a false positive) on "v" + std::to_string(k).
std::string corner_name(int k) {
  std::string name(1, 'v');
  name += std::to_string(k);
  return name;
}
std::string edge_name(int k1, int k2) {
  std::string name(1, 'e');
  name += std::to_string(std::min(k1, k2));
  name += std::to_string(std::max(k1, k2));
  return name;
}
std::string face_name(int axis, int sign) {
  std::string name = "f";
  name += sign > 0 ? '+' : '-';
  name += "xyz"[axis];
  return name;
}

Vec3 box_corner(const Shape& s, const Pose& pose, int k) {
  const Vec3 local((k & 1 ? 0.5 : -0.5) * s.size.x(), (k & 2 ? 0.5 : -0.5) * s.size.y(),
                   (k & 4 ? 0.5 : -0.5) * s.size.z());
  return pose.p + pose.R * local;
}

// The feature of a box's surface that holds x (world): a corner, an edge or a face, by how many of
// its coordinates sit at the box's half extents.
std::string box_feature(const Shape& s, const Pose& pose, const Vec3& x) {
  const Vec3 local = pose.R.transpose() * (x - pose.p), half = s.size / 2;
  int at_bound = 0, k = 0, free_axis = 0, face_axis = 0;
  for (int i = 0; i < 3; ++i) {
    if (std::abs(local[i]) >= half[i] * (1 - 1e-9)) {
      ++at_bound;
      face_axis = i;
      if (local[i] > 0) k |= 1 << i;
    } else {
      free_axis = i;
    }
  }
  if (at_bound == 3) return corner_name(k);
  if (at_bound == 2) return edge_name(k, k | 1 << free_axis);
  return face_name(face_axis, local[face_axis] > 0 ? 1 : -1);
}

std::string feature_of(const Shape& s, const Pose& pose, const Vec3& x) {
  return s.type == ShapeType::box ? box_feature(s, pose, x) : "surface";
}

// The four corners of a box face, in order around it.
std::array<int, 4> face_corners(int axis, int sign) {
  const int j = (axis + 1) % 3, l = (axis + 2) % 3, base = sign > 0 ? 1 << axis : 0;
  return {base, base | 1 << j, base | 1 << j | 1 << l, base | 1 << l};
}

struct Face {
  int axis = 2;
  int sign = 1;
  double alignment = 0;  // cosine between the face's outward normal and the direction asked
};

// The face of a box whose outward normal is nearest to u (world).
Face facing(const Pose& pose, const Vec3& u) {
  const Vec3 local = pose.R.transpose() * u;
  Face f;
  local.cwiseAbs().maxCoeff(&f.axis);
  f.sign = local[f.axis] >= 0 ? 1 : -1;
  f.alignment = std::abs(local[f.axis]) / u.norm();
  return f;
}

// An edge of a polygon being clipped: an edge of the incident box, or (once clipping has cut along
// it) an edge of the reference face. k1, k2: its corners on that box.
struct EdgeLabel {
  bool reference = false;
  int k1 = 0, k2 = 0;
};

struct PolyVertex {
  Vec3 x;
  std::string incident_feature, reference_feature;
  EdgeLabel to_next;
};

// Sutherland-Hodgman against the side plane { x : m . x <= c } of the reference face, whose edge
// along that side is `side`. A new vertex where an incident edge crosses the side is that edge
// against the side edge; where an earlier cut crosses it, a corner of the reference face inside the
// incident face.
std::vector<PolyVertex> clip(const std::vector<PolyVertex>& poly, const Vec3& m, double c, const EdgeLabel& side,
                             int incident_axis, int incident_sign) {
  std::vector<PolyVertex> out;
  const std::size_t n = poly.size();
  for (std::size_t i = 0; i < n; ++i) {
    const PolyVertex& p = poly[i];
    const PolyVertex& q = poly[(i + 1) % n];
    const double dp = m.dot(p.x) - c, dq = m.dot(q.x) - c;
    if (dp <= 0) out.push_back(p);
    if ((dp <= 0) == (dq <= 0)) continue;
    PolyVertex x;
    x.x = p.x + dp / (dp - dq) * (q.x - p.x);
    if (p.to_next.reference) {
      const int shared = (p.to_next.k1 == side.k1 || p.to_next.k1 == side.k2) ? p.to_next.k1 : p.to_next.k2;
      x.incident_feature = face_name(incident_axis, incident_sign);
      x.reference_feature = corner_name(shared);
    } else {
      x.incident_feature = edge_name(p.to_next.k1, p.to_next.k2);
      x.reference_feature = edge_name(side.k1, side.k2);
    }
    x.to_next = dp <= 0 ? side : p.to_next;
    out.push_back(x);
  }
  return out;
}

Manifold one_point(const PairDistance& d, const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  Manifold m;
  m.normal = d.normal;
  const std::string feature = feature_of(a, pa, d.point_a) + "|" + feature_of(b, pb, d.point_b);
  m.points.push_back({d.point_a, d.point_b, d.distance, feature});
  return m;
}

// A box against a halfspace (normal n from the halfspace to the box): every corner within reach.
Manifold box_on_halfspace(const PairDistance& d, const Shape& box, const Pose& pose, double tolerance,
                          bool box_is_a) {
  Manifold m;
  const Vec3 n = box_is_a ? d.normal : Vec3(-d.normal);
  const double lowest = n.dot(box_is_a ? d.point_a : d.point_b);
  m.normal = d.normal;
  for (int k = 0; k < 8; ++k) {
    const Vec3 x = box_corner(box, pose, k);
    const double gap = d.distance + n.dot(x) - lowest;
    if (gap > d.distance + tolerance) continue;
    const Vec3 on_plane = x - gap * n;
    if (box_is_a)
      m.points.push_back({x, on_plane, gap, corner_name(k) + "|surface"});
    else
      m.points.push_back({on_plane, x, gap, "surface|" + corner_name(k)});
  }
  return m;
}

// Two boxes: the face of one most aligned with the normal is the reference, the other's face most
// against it the incident one; the incident face clipped to the reference face's sides gives the
// points within reach. Where neither face is aligned (edge on edge), the nearest points alone.
Manifold box_on_box(const PairDistance& d, const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                    double tolerance) {
  const Face face_b = facing(pb, d.normal), face_a = facing(pa, -d.normal);
  constexpr double kFlat = 1 - 1e-6;
  if (face_a.alignment < kFlat && face_b.alignment < kFlat) return one_point(d, a, pa, b, pb);
  const bool reference_is_b = face_b.alignment >= face_a.alignment;
  const Shape& ref = reference_is_b ? b : a;
  const Shape& inc = reference_is_b ? a : b;
  const Pose& pref = reference_is_b ? pb : pa;
  const Pose& pinc = reference_is_b ? pa : pb;
  const Face fr = reference_is_b ? face_b : face_a;
  const Vec3 n_ref = fr.sign * pref.R.col(fr.axis);  // outward normal of the reference face
  const Face fi = facing(pinc, -n_ref);

  std::vector<PolyVertex> poly;
  const std::array<int, 4> ic = face_corners(fi.axis, fi.sign);
  for (int i = 0; i < 4; ++i)
    poly.push_back({box_corner(inc, pinc, ic[i]), corner_name(ic[i]), face_name(fr.axis, fr.sign),
                    EdgeLabel{false, ic[i], ic[(i + 1) % 4]}});
  const std::array<int, 4> rc = face_corners(fr.axis, fr.sign);
  for (int i = 0; i < 4 && !poly.empty(); ++i) {
    // The side through reference corners rc[i], rc[i+1]: its outward direction is the in-face axis
    // along which both corners lie on the same half.
    const int k1 = rc[i], k2 = rc[(i + 1) % 4];
    const int common = ~(k1 ^ k2) & 7 & ~(1 << fr.axis);
    const int axis = common & 1 ? 0 : (common & 2 ? 1 : 2);
    const double sign = k1 & 1 << axis ? 1.0 : -1.0;
    const Vec3 m = sign * pref.R.col(axis);
    poly = clip(poly, m, m.dot(pref.p) + ref.size[axis] / 2, EdgeLabel{true, k1, k2}, fi.axis, fi.sign);
  }
  Manifold out;
  out.normal = d.normal;
  const double face_offset = n_ref.dot(pref.p) + ref.size[fr.axis] / 2;
  for (const PolyVertex& v : poly) {
    const double gap = n_ref.dot(v.x) - face_offset;
    if (gap > d.distance + tolerance) continue;
    const Vec3 on_face = v.x - gap * n_ref;
    if (reference_is_b)
      out.points.push_back({v.x, on_face, gap, v.incident_feature + "|" + v.reference_feature});
    else
      out.points.push_back({on_face, v.x, gap, v.reference_feature + "|" + v.incident_feature});
  }
  return out;
}

}  // namespace

Manifold contact_manifold(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double tolerance) {
  const PairDistance d = shape_pair_distance(a, pa, b, pb);
  if (!d.ok || d.distance > tolerance) return {};
  if (a.type == ShapeType::box && b.type == ShapeType::halfspace) return box_on_halfspace(d, a, pa, tolerance, true);
  if (a.type == ShapeType::halfspace && b.type == ShapeType::box) return box_on_halfspace(d, b, pb, tolerance, false);
  if (a.type == ShapeType::box && b.type == ShapeType::box) return box_on_box(d, a, pa, b, pb, tolerance);
  return one_point(d, a, pa, b, pb);
}

}  // namespace impactsim
