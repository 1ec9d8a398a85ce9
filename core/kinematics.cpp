#include "core/kinematics.hpp"

namespace impactsim {

Kinematics::Kinematics(const Model& model) {
  const size_t n = model.bodies.size();
  X_parent.resize(n);
  R.resize(n);
  p.resize(n);
  S.resize(n);
  v.assign(n, Vec6::Zero());
  c.assign(n, Vec6::Zero());
  I_body.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const Body& b = model.bodies[i];
    I_body[i] = spatial_inertia(b.mass, b.com, b.inertia);
    S[i].resize(6, b.joint.nv);
  }
}

void update_kinematics(const Model& model, const Eigen::VectorXd& q, Kinematics& kin) {
  for (size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    const double* qi = q.data() + b.joint.q_index;
    const Transform tree{b.joint.rotation.transpose(), b.joint.origin};
    const Mat3 R_joint = joint_rotation(b.joint, qi);
    const Vec3 translation = joint_translation(b.joint, qi);
    kin.X_parent[i] = Transform{R_joint.transpose(), translation} * tree;  // child_X_jointframe * jointframe_X_parent
    kin.S[i] = motion_subspace(b.joint, R_joint);
    const Vec3 offset = b.joint.origin + b.joint.rotation * translation;
    if (b.parent < 0) {
      kin.R[i] = b.joint.rotation * R_joint;
      kin.p[i] = offset;
    } else {
      kin.R[i] = kin.R[b.parent] * b.joint.rotation * R_joint;
      kin.p[i] = kin.p[b.parent] + kin.R[b.parent] * offset;
    }
  }
}

void update_velocities(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                       Kinematics& kin) {
  for (size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    const Vec6 vJ = kin.S[i] * v.segment(b.joint.v_index, b.joint.nv);
    const Vec6 cJ = joint_bias(b.joint, q.data() + b.joint.q_index, v.data() + b.joint.v_index);
    kin.v[i] = b.parent < 0 ? vJ : Vec6(kin.X_parent[i].apply_motion(kin.v[b.parent]) + vJ);
    kin.c[i] = cJ + cross_motion(kin.v[i], vJ);
  }
}

Vec3 point_position(const Kinematics& kin, int body, const Vec3& point_in_body) {
  return kin.p[body] + kin.R[body] * point_in_body;
}

Eigen::Matrix<double, 6, Eigen::Dynamic> point_jacobian(const Model& model, const Kinematics& kin,
                                                       int body, const Vec3& point_in_body) {
  Eigen::Matrix<double, 6, Eigen::Dynamic> J = Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, model.nv);
  const Vec3 x = point_position(kin, body, point_in_body);
  for (int j = body; j >= 0; j = model.bodies[j].parent) {
    const Joint& joint = model.bodies[j].joint;
    for (int k = 0; k < joint.nv; ++k) J.col(joint.v_index + k) = point_jacobian_column(kin, j, k, x);
  }
  return J;
}

}  // namespace impactsim
