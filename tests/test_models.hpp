#pragma once
// Models built directly in C++ (no YAML) so core is tested on its own, plus finite-difference helpers.
#include <random>

#include <Eigen/Geometry>

#include "collision/fcl_distance.hpp"
#include "collision/shape.hpp"
#include "core/dynamics.hpp"
#include "core/joint.hpp"
#include "core/kinematics.hpp"
#include "core/model.hpp"

namespace impactsim::testing {

inline Mat3 random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> n;
  return Quat(n(rng), n(rng), n(rng), n(rng)).normalized().toRotationMatrix();
}

// A random physically valid inertia about the com: R diag(a, b, c) R^T with triangle inequalities.
inline Mat3 random_inertia(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.2, 1.0);
  const double a = u(rng), b = u(rng), c = 0.5 * (a + b) * u(rng) + 0.1 * std::abs(a - b);
  const Mat3 R = random_rotation(rng);
  return R * Vec3(a, b, std::max(c, std::abs(a - b))).asDiagonal() * R.transpose();
}

inline Vec3 random_vec(std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vec3(u(rng), u(rng), u(rng));
}

// A 3-D chain of `links` bodies: revolute joints about random axes with random placements, one
// prismatic joint in the middle, random mass properties.
inline Model chain_model(int links, std::mt19937& rng) {
  Model m;
  for (int i = 0; i < links; ++i) {
    Body b;
    b.name = "link" + std::to_string(i);
    b.parent = i - 1;
    b.joint.type = (i == links / 2) ? JointType::prismatic : JointType::revolute;
    b.joint.origin = i == 0 ? Vec3::Zero() : random_vec(rng, 0.8);
    b.joint.rotation = random_rotation(rng);
    b.joint.axis = random_vec(rng).normalized();
    b.mass = 0.5 + std::uniform_real_distribution<double>(0, 1)(rng);
    b.com = random_vec(rng, 0.5);
    b.inertia = random_inertia(rng);
    m.bodies.push_back(b);
  }
  m.gravity = Vec3(0.3, -0.2, -9.81);
  finalize_model(m);
  return m;
}

inline Model free_body_model(std::mt19937& rng) {
  Model m;
  Body b;
  b.name = "body";
  b.joint.type = JointType::free;
  b.joint.origin = random_vec(rng);
  b.joint.rotation = random_rotation(rng);
  b.mass = 1.7;
  b.com = random_vec(rng, 0.3);
  b.inertia = random_inertia(rng);
  m.bodies.push_back(b);
  m.gravity = Vec3(0, 0, -9.81);
  finalize_model(m);
  return m;
}

// A planar body carrying a pendulum (revolute about z) and a slider, so the planar joint's
// velocity-dependent terms couple into children.
inline Model planar_model(std::mt19937& rng) {
  Model m;
  Body base;
  base.name = "base";
  base.joint.type = JointType::planar;
  base.mass = 2.0;
  base.com = Vec3(0.1, -0.2, 0);
  base.inertia = Vec3(0.1, 0.2, 0.25).asDiagonal();
  m.bodies.push_back(base);
  Body arm;
  arm.name = "arm";
  arm.parent = 0;
  arm.joint.type = JointType::revolute;
  arm.joint.origin = Vec3(0.3, 0.1, 0);
  arm.mass = 0.7;
  arm.com = Vec3(0, -0.5, 0);
  arm.inertia = Vec3(0.02, 0.01, 0.03).asDiagonal();
  m.bodies.push_back(arm);
  Body slider;
  slider.name = "slider";
  slider.parent = 0;
  slider.joint.type = JointType::prismatic;
  slider.joint.axis = Vec3(1, 1, 0).normalized();
  slider.mass = 0.4;
  slider.inertia = random_inertia(rng) * 0.1;
  m.bodies.push_back(slider);
  m.gravity = Vec3(0, -9.81, 0);
  finalize_model(m);
  return m;
}

// M(q) of model m, by the composite-rigid-body algorithm.
inline Eigen::MatrixXd mass_matrix_at(const Model& m, const Eigen::VectorXd& q) {
  Kinematics kin(m);
  update_kinematics(m, q, kin);
  std::vector<Mat6> composite;
  Eigen::MatrixXd M;
  mass_matrix(m, kin, composite, M);
  return M;
}

// One body on one joint to the world.
inline Model single_body_model(JointType type, double mass, const Mat3& inertia, const Vec3& gravity) {
  Model m;
  Body b;
  b.name = "body";
  b.joint.type = type;
  b.mass = mass;
  b.inertia = inertia;
  m.bodies.push_back(b);
  m.gravity = gravity;
  finalize_model(m);
  return m;
}

// Solid shapes centred on their frame's origin.
inline Shape box_shape(const Vec3& size) {
  Shape s;
  s.type = ShapeType::box;
  s.size = size;
  return s;
}

inline Shape sphere_shape(double radius) {
  Shape s;
  s.type = ShapeType::sphere;
  s.radius = radius;
  return s;
}

// A capsule or cylinder: radius, length along its z axis.
inline Shape round_shape(ShapeType type, double radius, double length) {
  Shape s;
  s.type = type;
  s.radius = radius;
  s.length = length;
  return s;
}

// The halfspace { x : normal . x <= offset }.
inline Shape halfspace_shape(const Vec3& normal, double offset) {
  Shape s;
  s.type = ShapeType::halfspace;
  s.normal = normal;
  s.offset = offset;
  return s;
}

// A shape's frame in the world.
inline Pose placed(const Vec3& p, const Mat3& R = Mat3::Identity()) {
  Pose pose;
  pose.p = p;
  pose.R = R;
  return pose;
}

inline Mat3 turned(const Vec3& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

// Random q (unit quaternions) and v.
inline Eigen::VectorXd random_q(const Model& m, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  Eigen::VectorXd q(m.nq);
  for (int i = 0; i < m.nq; ++i) q[i] = u(rng);
  for (const Body& b : m.bodies) joint_normalize(b.joint, q.data() + b.joint.q_index);
  return q;
}

inline Eigen::VectorXd random_v(const Model& m, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-2, 2);
  Eigen::VectorXd v(m.nv);
  for (int i = 0; i < m.nv; ++i) v[i] = u(rng);
  return v;
}

// q moved by v*dt along the configuration manifold.
inline Eigen::VectorXd integrate(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double dt) {
  Eigen::VectorXd out(m.nq);
  for (const Body& b : m.bodies)
    joint_integrate(b.joint, q.data() + b.joint.q_index, v.data() + b.joint.v_index, dt, out.data() + b.joint.q_index);
  return out;
}

}  // namespace impactsim::testing
