#include "core/dynamics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

namespace impactsim {

void mass_matrix(const Model& model, const Kinematics& kin, std::vector<Mat6>& composite,
                 Eigen::MatrixXd& M) {
  const int n = static_cast<int>(model.bodies.size());
  composite.resize(n);
  if (M.rows() != model.nv || M.cols() != model.nv) M.setZero(model.nv, model.nv);
  for (int i = 0; i < n; ++i) composite[i] = kin.I_body[i];
  for (int i = n - 1; i >= 0; --i) {
    const int parent = model.bodies[i].parent;
    if (parent < 0) continue;
    const Mat6 X = kin.X_parent[i].matrix();
    composite[parent] += X.transpose() * composite[i] * X;
  }
  for (int i = 0; i < n; ++i) {
    const Joint& ji = model.bodies[i].joint;
    if (ji.nv == 0) continue;
    Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6> F = composite[i] * kin.S[i];
    M.block(ji.v_index, ji.v_index, ji.nv, ji.nv) = kin.S[i].transpose() * F;
    for (int j = i; model.bodies[j].parent >= 0;) {
      for (int k = 0; k < F.cols(); ++k) F.col(k) = kin.X_parent[j].transpose_apply_force(F.col(k));
      j = model.bodies[j].parent;
      const Joint& jj = model.bodies[j].joint;
      if (jj.nv == 0) continue;
      M.block(ji.v_index, jj.v_index, ji.nv, jj.nv) = F.transpose() * kin.S[j];
      M.block(jj.v_index, ji.v_index, jj.nv, ji.nv) = M.block(ji.v_index, jj.v_index, ji.nv, jj.nv).transpose();
    }
  }
}

void bias_forces(const Model& model, const Kinematics& kin, std::vector<Vec6>& acc,
                 std::vector<Vec6>& force, Eigen::VectorXd& C) {
  const int n = static_cast<int>(model.bodies.size());
  acc.resize(n);
  force.resize(n);
  // The fictitious upward acceleration of the base stands for gravity.
  const Vec6 a_base = spatial(Vec3::Zero(), -model.gravity);
  for (int i = 0; i < n; ++i) {
    const int parent = model.bodies[i].parent;
    acc[i] = kin.X_parent[i].apply_motion(parent < 0 ? a_base : acc[parent]) + kin.c[i];
    force[i] = kin.I_body[i] * acc[i] + cross_force(kin.v[i], kin.I_body[i] * kin.v[i]);
  }
  C.resize(model.nv);
  for (int i = n - 1; i >= 0; --i) {
    const Body& b = model.bodies[i];
    if (b.joint.nv > 0) C.segment(b.joint.v_index, b.joint.nv) = kin.S[i].transpose() * force[i];
    if (b.parent >= 0) force[b.parent] += kin.X_parent[i].transpose_apply_force(force[i]);
  }
}

void add_joint_damping(const Model& model, const Eigen::VectorXd& v, Eigen::VectorXd& C) {
  for (const Body& b : model.bodies)
    if (b.joint.damping > 0) C[b.joint.v_index] += b.joint.damping * v[b.joint.v_index];
}

double kinetic_energy(const Model& model, const Kinematics& kin) {
  double K = 0.0;
  for (size_t i = 0; i < model.bodies.size(); ++i) K += 0.5 * kin.v[i].dot(kin.I_body[i] * kin.v[i]);
  return K;
}

double potential_energy(const Model& model, const Kinematics& kin) {
  double U = 0.0;
  for (size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    U -= b.mass * model.gravity.dot(point_position(kin, static_cast<int>(i), b.com));
  }
  return U;
}

std::pair<double, double> energies(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  Kinematics kin(model);
  return energies(model, q, v, kin);
}

std::pair<double, double> energies(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   Kinematics& kin) {
  update_kinematics(model, q, kin);
  update_velocities(model, q, v, kin);
  return {kinetic_energy(model, kin), potential_energy(model, kin)};
}

Vec6 spatial_momentum(const Model& model, const Kinematics& kin) {
  Vec6 h = Vec6::Zero();
  for (size_t i = 0; i < model.bodies.size(); ++i) {
    const Transform body_from_world{kin.R[i].transpose(), kin.p[i]};
    h += body_from_world.transpose_apply_force(kin.I_body[i] * kin.v[i]);
  }
  return h;
}

ForwardDynamics::ForwardDynamics(const Model& model)
    : kin_(model), composite_(model.bodies.size()), acc_(model.bodies.size()),
      force_(model.bodies.size()), M_(Eigen::MatrixXd::Zero(model.nv, model.nv)), C_(model.nv), llt_(model.nv) {}

bool ForwardDynamics::compute(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                              const Eigen::VectorXd& tau, Eigen::VectorXd& vdot) {
  update_kinematics(model, q, kin_);
  update_velocities(model, q, v, kin_);
  mass_matrix(model, kin_, composite_, M_);
  bias_forces(model, kin_, acc_, force_, C_);
  llt_.compute(M_);
  if (llt_.info() != Eigen::Success) return false;
  vdot = tau - C_;
  llt_.solveInPlace(vdot);
  return true;
}

MassMatrixCheck check_mass_matrix(const Model& model, const Eigen::VectorXd& q) {
  MassMatrixCheck result;
  if (model.nv == 0) return result;
  Kinematics kin(model);
  update_kinematics(model, q, kin);
  std::vector<Mat6> composite;
  Eigen::MatrixXd M;
  mass_matrix(model, kin, composite, M);
  // M is zero between trees (mass_blocks): its eigenvalues are those of its diagonal blocks, and
  // each block's eigenvectors are M's. Solved whole, the eigenproblem of a pile would cost time
  // cubic in its velocities at every load.
  double smallest = std::numeric_limits<double>::infinity(), largest = -smallest;
  for (const VelocityBlock& b : mass_blocks(model)) {
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(M.block(b.start, b.start, b.size, b.size));
    largest = std::max(largest, eig.eigenvalues().maxCoeff());
    if (!(eig.eigenvalues().minCoeff() < smallest)) continue;
    smallest = eig.eigenvalues().minCoeff();
    eig.eigenvectors().col(0).cwiseAbs().maxCoeff(&result.weakest);
    result.weakest += b.start;
  }
  // An M that is not finite has no eigenvalue to compare: it counts as singular, along the first v.
  if (result.weakest < 0 || !std::isfinite(largest)) return MassMatrixCheck{0.0, std::max(result.weakest, 0)};
  result.conditioning = largest > 0 ? smallest / largest : 0.0;
  return result;
}

}  // namespace impactsim
