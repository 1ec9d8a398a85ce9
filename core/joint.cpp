#include "core/joint.hpp"

#include <cmath>

namespace impactsim {
namespace {

Quat quaternion_of(const double* q) { return Quat(q[3], q[4], q[5], q[6]).normalized(); }

Mat3 rotation_z(double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  Mat3 R;
  R << c, -s, 0, s, c, 0, 0, 0, 1;
  return R;
}

}  // namespace

int joint_nq(JointType type) {
  switch (type) {
    case JointType::planar: return 3;
    case JointType::free: return 7;
    case JointType::revolute:
    case JointType::prismatic: return 1;
    case JointType::fixed: return 0;
  }
  return 0;
}

bool joint_has_axis(JointType type) { return type == JointType::revolute || type == JointType::prismatic; }

int joint_nv(JointType type) {
  switch (type) {
    case JointType::planar: return 3;
    case JointType::free: return 6;
    case JointType::revolute:
    case JointType::prismatic: return 1;
    case JointType::fixed: return 0;
  }
  return 0;
}

std::string_view joint_type_name(JointType type) {
  switch (type) {
    case JointType::planar: return "planar";
    case JointType::free: return "free";
    case JointType::revolute: return "revolute";
    case JointType::prismatic: return "prismatic";
    case JointType::fixed: return "fixed";
  }
  return "?";
}

std::vector<std::string_view> joint_q_names(JointType type) {
  switch (type) {
    case JointType::planar: return {"x", "y", "theta"};
    case JointType::free: return {"x", "y", "z", "qw", "qx", "qy", "qz"};
    case JointType::revolute: return {"theta"};
    case JointType::prismatic: return {"s"};
    case JointType::fixed: return {};
  }
  return {};
}

std::vector<std::string_view> joint_v_names(JointType type) {
  switch (type) {
    case JointType::planar: return {"vx", "vy", "omega"};
    case JointType::free: return {"vx", "vy", "vz", "wx", "wy", "wz"};
    case JointType::revolute: return {"omega"};
    case JointType::prismatic: return {"sdot"};
    case JointType::fixed: return {};
  }
  return {};
}

Mat3 joint_rotation(const Joint& joint, const double* q) {
  switch (joint.type) {
    case JointType::planar: return rotation_z(q[2]);
    case JointType::free: return quaternion_of(q).toRotationMatrix();
    case JointType::revolute: return Eigen::AngleAxisd(q[0], joint.axis).toRotationMatrix();
    case JointType::prismatic:
    case JointType::fixed: return Mat3::Identity();
  }
  return Mat3::Identity();
}

Vec3 joint_translation(const Joint& joint, const double* q) {
  switch (joint.type) {
    case JointType::planar: return Vec3(q[0], q[1], 0.0);
    case JointType::free: return Vec3(q[0], q[1], q[2]);
    case JointType::prismatic: return joint.axis * q[0];
    case JointType::revolute:
    case JointType::fixed: return Vec3::Zero();
  }
  return Vec3::Zero();
}

MotionSubspace motion_subspace(const Joint& joint, const double* q) {
  return motion_subspace(joint, joint_rotation(joint, q));
}

MotionSubspace motion_subspace(const Joint& joint, const Mat3& R_joint) {
  MotionSubspace S(6, joint_nv(joint.type));
  S.setZero();
  switch (joint.type) {
    case JointType::planar: {
      const Mat3 Rt = R_joint.transpose();
      S.block<3, 1>(3, 0) = Rt.col(0);
      S.block<3, 1>(3, 1) = Rt.col(1);
      S(2, 2) = 1.0;
      break;
    }
    case JointType::free:
      S.block<3, 3>(3, 0) = R_joint.transpose();
      S.block<3, 3>(0, 3).setIdentity();
      break;
    case JointType::revolute: S.block<3, 1>(0, 0) = joint.axis; break;
    case JointType::prismatic: S.block<3, 1>(3, 0) = joint.axis; break;
    case JointType::fixed: break;
  }
  return S;
}

// Joints whose linear velocity is given in the parent frame have a motion subspace that turns with
// the body: S = [0; R^T] for those columns, so c_J = d/dt(R^T) v_lin = -omega_body x (R^T v_lin).
Vec6 joint_bias(const Joint& joint, const double* q, const double* v) {
  switch (joint.type) {
    case JointType::planar: {
      const Vec3 v_body = rotation_z(q[2]).transpose() * Vec3(v[0], v[1], 0.0);
      return spatial(Vec3::Zero(), -Vec3(0, 0, v[2]).cross(v_body));
    }
    case JointType::free: {
      const Vec3 v_body = quaternion_of(q).toRotationMatrix().transpose() * Vec3(v[0], v[1], v[2]);
      return spatial(Vec3::Zero(), -Vec3(v[3], v[4], v[5]).cross(v_body));
    }
    case JointType::revolute:
    case JointType::prismatic:
    case JointType::fixed: return Vec6::Zero();
  }
  return Vec6::Zero();
}

void joint_qdot(const Joint& joint, const double* q, const double* v, double* qdot) {
  if (joint.type != JointType::free) {
    for (int i = 0; i < joint.nv; ++i) qdot[i] = v[i];
    return;
  }
  for (int i = 0; i < 3; ++i) qdot[i] = v[i];
  // qdot = 1/2 q (x) (0, omega_body).
  const double w = q[3], x = q[4], y = q[5], z = q[6];
  const double a = v[3], b = v[4], c = v[5];
  qdot[3] = 0.5 * (-x * a - y * b - z * c);
  qdot[4] = 0.5 * (w * a + y * c - z * b);
  qdot[5] = 0.5 * (w * b + z * a - x * c);
  qdot[6] = 0.5 * (w * c + x * b - y * a);
}

void joint_integrate(const Joint& joint, const double* q, const double* v, double dt, double* q_out) {
  if (joint.type != JointType::free) {
    for (int i = 0; i < joint.nq; ++i) q_out[i] = q[i] + dt * v[i];
    return;
  }
  for (int i = 0; i < 3; ++i) q_out[i] = q[i] + dt * v[i];
  const Vec3 rotvec = Vec3(v[3], v[4], v[5]) * dt;
  const double angle = rotvec.norm();
  const Quat dq = angle > 0 ? Quat(Eigen::AngleAxisd(angle, rotvec / angle)) : Quat::Identity();
  const Quat r = Quat(q[3], q[4], q[5], q[6]) * dq;
  q_out[3] = r.w();
  q_out[4] = r.x();
  q_out[5] = r.y();
  q_out[6] = r.z();
}

double joint_normalize(const Joint& joint, double* q) {
  if (joint.type != JointType::free) return 0.0;
  const double n = std::sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6]);
  for (int i = 3; i < 7; ++i) q[i] /= n;
  return std::abs(n - 1.0);
}

}  // namespace impactsim
