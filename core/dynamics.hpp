#pragma once
// Rigid-body dynamics of the tree, M(q) vdot + C(q, v) = tau, with C holding gravity, Coriolis and
// centrifugal terms (sign: C is what the joints must supply to hold vdot = 0, so vdot = M^-1 (tau - C)).
// All functions read a Kinematics already updated at (q, v) and never allocate once their outputs
// are sized.
#include <utility>

#include <Eigen/Cholesky>

#include "core/kinematics.hpp"

namespace impactsim {

// M(q) by the composite-rigid-body algorithm (Featherstone, Table 6.2). Needs update_kinematics.
// Only the blocks the joint tree couples (a joint with itself and its ancestors) are written, the
// same ones every call: M is zeroed only when it is not nv x nv, so pass a zero matrix or one an
// earlier call filled for this model (zeroing a pile's M at every force evaluation would cost
// nv^2 each time).
void mass_matrix(const Model& model, const Kinematics& kin, std::vector<Mat6>& composite,
                 Eigen::MatrixXd& M);

// C(q, v) by recursive Newton-Euler with vdot = 0 and the base accelerating at -g (Table 5.1).
// Needs update_velocities. `force` is scratch, one entry per body.
void bias_forces(const Model& model, const Kinematics& kin, std::vector<Vec6>& acc,
                 std::vector<Vec6>& force, Eigen::VectorXd& C);

// C += damping * v on every damped joint's coordinate (core/joint.hpp): the joint's viscous force
// moved to the side of the bias forces, vdot = M^-1 (tau - C).
void add_joint_damping(const Model& model, const Eigen::VectorXd& v, Eigen::VectorXd& C);

// K = 1/2 v^T M v, summed body by body from the spatial velocities [J].
double kinetic_energy(const Model& model, const Kinematics& kin);
// Gravitational potential energy, zero at the world origin [J].
double potential_energy(const Model& model, const Kinematics& kin);
// Both energies at (q, v) [J], for output and checks; allocates its own Kinematics.
std::pair<double, double> energies(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
// The same in the caller's scratch `kin` (made for `model`): no allocation, for per-step checks.
std::pair<double, double> energies(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   Kinematics& kin);
// Total spatial momentum [angular about the world origin; linear], world axes.
Vec6 spatial_momentum(const Model& model, const Kinematics& kin);

// Owns the scratch for evaluating vdot = M^-1 (tau - C) of the model it was made for; one per thread.
class ForwardDynamics {
 public:
  explicit ForwardDynamics(const Model& model);
  // Returns false if M(q) is not numerically positive definite.
  bool compute(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& tau,
               Eigen::VectorXd& vdot);
  const Eigen::MatrixXd& M() const { return M_; }

 private:
  Kinematics kin_;
  std::vector<Mat6> composite_;
  std::vector<Vec6> acc_, force_;
  Eigen::MatrixXd M_;
  Eigen::VectorXd C_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
};

struct MassMatrixCheck {
  double conditioning = 1.0;  // smallest over largest eigenvalue of M(q); ~1e-12 or less: singular
  int weakest = -1;           // the v entry that dominates the weakest eigenvector
};
MassMatrixCheck check_mass_matrix(const Model& model, const Eigen::VectorXd& q);

}  // namespace impactsim
