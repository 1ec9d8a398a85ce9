#pragma once
// Drumwright's per-step constraint problem ("An Unconditionally Stable First-Order Constraint
// Solver for Multibody Systems", §4-§6), pure algebra in constraint space. Every row is a
// spring-damper, lambda = -K phi_1 - B phidot_1 - Mhat Gdot v, at the deformation predicted by
// implicit Euler; with S = G M^-1 G^T and W = h^2 K + h B > 0 (diagonal) that value is r - W S lambda,
// r = -K phi_0 - (h K + B)(phidot_0 + h G M^-1 f + h Gdot v_0) - Mhat Gdot v_0 (the caller forms r).
// e = lambda - (r - W S lambda) = W (H lambda + g), H = W^-1 + S, g = -W^-1 r, is each row's excess
// over its spring-damper force. Rows are of three kinds:
//   bilateral (joints):        e = 0                                   ((53), (61): one linear solve)
//   contact normal (phi <= 0): lambda_n >= 0 and e_n >= 0
//   friction (K_t = 0):        |lambda_t| <= mu lambda_n (planar box, 3-D polygon or circular cone)
// Two problems, chosen explicitly: the paper's minimum-norm QP ((83)-(85), §5.3) is the implicit
// spring-damper law only for decoupled rows, and differs from it once rows are coupled
// (tests/impact/soft_constraints_test.cpp has two counterexamples):
//   lcp:          lambda_n = max(0, spring-damper value) exactly (e_n _|_ lambda_n) and friction the
//                 polyhedral Coulomb law on e_t (numerics/coulomb_lcp.hpp): sticks at the damper's force
//                 inside the polygon, else on its edge. Lemke's algorithm.
//   min_norm_qp:  the paper's (99)-(120): minimize zeta/2 |lambda_n|^2 + 1/2 |lambda_t|^2 + 1/2 |e_t|^2
//                 subject to e_n >= 0, lambda_n >= 0 and the cone (circular allowed). Barrier method.
// Bilateral rows are eliminated first by their Schur complement (the same in both problems).
#include <string>
#include <vector>

#include <Eigen/Core>

namespace impactsim {

enum class SoftProblem { lcp, min_norm_qp };
enum class FrictionConeKind { polyhedral, circular };

struct SoftContactRows {
  int normal = 0;    // row of lambda_n
  int tangent = -1;  // first of tangent_dim friction rows, -1 for a frictionless contact
  double mu = 0.0;
};

struct SoftConstraintProblem {
  Eigen::MatrixXd S;  // G M^-1 G^T
  Eigen::VectorXd r;  // spring-damper right-hand side, see above
  Eigen::VectorXd W;  // h^2 K + h B per row, > 0
  std::vector<int> bilateral;  // rows
  std::vector<SoftContactRows> contacts;
  int tangent_dim = 1;
};

struct SoftSolverOptions {
  SoftProblem problem = SoftProblem::lcp;
  FrictionConeKind cone = FrictionConeKind::polyhedral;
  int friction_directions = 8;  // polygon of 3-D friction
  double zeta = 100.0;          // min_norm_qp: weight of |lambda_n|^2 (the paper's 1/h)
};

struct SoftSolution {
  Eigen::VectorXd lambda;   // every row, N
  bool ok = true;
  double residual = 0.0;    // lcp: the LCP residual; min_norm_qp: the barrier method's gap bound
  int iterations = 0;       // Lemke pivots or Newton steps
  std::string diagnostic;
};

SoftSolution solve_soft_constraints(const SoftConstraintProblem& problem, const SoftSolverOptions& options);

}  // namespace impactsim
