#pragma once
// Spatial (6-D) vector algebra after Featherstone, "Rigid Body Dynamics Algorithms" (2008), ch. 2.
//
// Conventions used everywhere in impactsim:
// - A motion vector is [omega; v]: angular velocity first, then the linear velocity of the body-fixed
//   point that currently sits at the frame's origin. A force vector is [n; f]: moment about the origin,
//   then force. Both are expressed in the coordinates of one frame.
// - Transform B_X_A maps motion vectors from A coordinates to B coordinates. It is stored as (E, r):
//   E rotates A-coordinates into B-coordinates (E = R_AB^T when R_AB gives B's axes in A), and r is
//   the position of B's origin expressed in A. Units: metres, radians, seconds, kilograms.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace impactsim {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Quat = Eigen::Quaterniond;

inline Mat3 skew(const Vec3& a) {
  Mat3 s;
  s << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return s;
}

inline Vec3 angular(const Vec6& m) { return m.head<3>(); }
inline Vec3 linear(const Vec6& m) { return m.tail<3>(); }
inline Vec6 spatial(const Vec3& ang, const Vec3& lin) {
  Vec6 m;
  m << ang, lin;
  return m;
}

// Motion cross product m x s ("crm" in Featherstone).
inline Vec6 cross_motion(const Vec6& m, const Vec6& s) {
  const Vec3 w = angular(m), v = linear(m);
  return spatial(w.cross(angular(s)), w.cross(linear(s)) + v.cross(angular(s)));
}

// Force cross product m x* f ("crf" in Featherstone).
inline Vec6 cross_force(const Vec6& m, const Vec6& f) {
  const Vec3 w = angular(m), v = linear(m);
  return spatial(w.cross(angular(f)) + v.cross(linear(f)), w.cross(linear(f)));
}

// Plucker transform B_X_A, see the header comment for (E, r).
struct Transform {
  Mat3 E = Mat3::Identity();
  Vec3 r = Vec3::Zero();

  Vec6 apply_motion(const Vec6& m) const {
    return spatial(E * angular(m), E * (linear(m) - r.cross(angular(m))));
  }
  // Maps a force from A to B coordinates.
  Vec6 apply_force(const Vec6& f) const {
    return spatial(E * (angular(f) - r.cross(linear(f))), E * linear(f));
  }
  // X^T applied to a force in B coordinates gives the same force in A coordinates.
  Vec6 transpose_apply_force(const Vec6& f) const {
    const Vec3 n = E.transpose() * angular(f), fa = E.transpose() * linear(f);
    return spatial(n + r.cross(fa), fa);
  }
  // X^{-1} applied to a motion in B coordinates gives it in A coordinates.
  Vec6 inverse_apply_motion(const Vec6& m) const {
    const Vec3 w = E.transpose() * angular(m), v = E.transpose() * linear(m);
    return spatial(w, v + r.cross(w));
  }
  // (C_X_B) * (B_X_A) = C_X_A.
  Transform operator*(const Transform& b_from_a) const {
    return {E * b_from_a.E, b_from_a.r + b_from_a.E.transpose() * r};
  }
  Mat6 matrix() const {
    Mat6 X = Mat6::Zero();
    X.topLeftCorner<3, 3>() = E;
    X.bottomRightCorner<3, 3>() = E;
    X.bottomLeftCorner<3, 3>() = -E * skew(r);
    return X;
  }
};

// Spatial inertia of a rigid body about a frame's origin: mass m, centre of mass c (in that frame),
// rotational inertia I_c about the centre of mass (in that frame's axes). Eq. (2.63) of Featherstone.
inline Mat6 spatial_inertia(double m, const Vec3& c, const Mat3& I_c) {
  Mat6 I;
  const Mat3 C = skew(c);
  I.topLeftCorner<3, 3>() = I_c + m * C * C.transpose();
  I.topRightCorner<3, 3>() = m * C;
  I.bottomLeftCorner<3, 3>() = m * C.transpose();
  I.bottomRightCorner<3, 3>() = m * Mat3::Identity();
  return I;
}

}  // namespace impactsim
