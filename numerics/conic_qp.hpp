#pragma once
// A small dense convex QP with linear and second-order cone constraints,
//   minimize 1/2 x^T P x + c^T x   subject to   A x >= b,   ||x[members_j]|| <= scale_j x[axis_j] (each cone j),
// P symmetric positive definite. Solved by the barrier method (Boyd and Vandenberghe §11.3): Newton
// on t f(x) - sum log(A x - b) - sum log(scale^2 x_axis^2 - ||x_members||^2) for increasing t, from a
// strictly feasible start the caller supplies, until the duality-gap bound (rows + 2 cones) / t,
// which bounds f(x) - f*, falls below gap_tolerance (absolute: the caller knows which part of f
// matters; a huge constant part, as in Drumwright's friction dampers, must not loosen the test).
// Drumwright's minimum-norm contact problems are of this form.
#include <string>
#include <vector>

#include <Eigen/Core>

namespace impactsim {

struct SecondOrderCone {
  int axis = 0;
  double scale = 1.0;
  std::vector<int> members;
};

struct ConicQp {
  Eigen::MatrixXd P;
  Eigen::VectorXd c;
  Eigen::MatrixXd A;  // rows x n (may have no rows)
  Eigen::VectorXd b;
  std::vector<SecondOrderCone> cones;
};

struct ConicQpResult {
  Eigen::VectorXd x;
  bool ok = true;
  int newton_steps = 0;
  double gap = 0.0;  // the final duality-gap bound
  std::string diagnostic;
};

ConicQpResult solve_conic_qp(const ConicQp& problem, const Eigen::VectorXd& strictly_feasible,
                             double gap_tolerance);

// True if x satisfies every constraint strictly.
bool strictly_feasible(const ConicQp& problem, const Eigen::VectorXd& x);

}  // namespace impactsim
