#pragma once
// The frictional contact problem with the circular Coulomb cone in impulse form, three rows per
// contact (normal, then two orthonormal tangents):
//   u = W r + b,  r_i = (lambda_i, p_i),  0 <= lambda_i _|_ u_n,i >= 0,
//   |p_i| <= mu_i lambda_i,  p_i = -mu_i lambda_i u_t,i / |u_t,i| where u_t,i != 0 (maximal dissipation).
// Solved by the semismooth Newton method on Alart and Curnier's equations (Alart and Curnier 1991),
//   Phi_n,i = lambda_i - [lambda_i - rho_i u_n,i]_+,
//   Phi_t,i = p_i - Proj_{disc of radius mu_i [lambda_i - rho_i u_n,i]_+}(p_i - rho_i u_t,i),
// whose zeros are exactly the problem's solutions, rho_i = 1 / W_nn,i, with a backtracking line
// search on |Phi|^2 / 2, from a start the caller gives (the polygon's answer is a close one).
// Where Newton's merit stalls at a false minimum, projected Gauss-Seidel sweeps move it on and
// Newton starts again. A converged answer is then moved into the cone by what rounding left
// outside it (at most the residual). Phi is an impulse [N s]: `residual` is |Phi|_inf at the answer. With an upper bound per contact
// (Routh's step, lambda_i <= lambda_max,i: a contact held at its bound may still approach), []_+
// becomes the clamp to [0, upper_i] in both equations.
#include <Eigen/Core>

namespace impactsim {

// An answer whose Newton and Gauss-Seidel rounds all stall within this factor of the tolerance
// counts as converged (its residual says how far it is).
inline constexpr double kStallFactor = 1000.0;
// A round of sweeps and Newton that ends within this factor of the tolerance without halving the
// residual is the last (see solve_coulomb_cone).
inline constexpr double kNearFactor = 10.0;

struct ConeSolution {
  Eigen::VectorXd r;       // 3 per contact
  double residual = 0.0;   // |Phi|_inf
  int iterations = 0;
  int least_norm_steps = 0;  // Newton steps by the complete orthogonal decomposition (see newton())
  int sparse_lu_steps = 0;   // Newton steps by the sparse LU of a large, sparse G (see newton())
  int stalled_runs = 0;      // Newton runs ended by a stalled residual (see newton())
  int sweeps = 0;            // projected Gauss-Seidel sweeps
  bool converged = false;  // residual <= tolerance, or <= kStallFactor tolerance where every round stalled
                           // (or the stall round ended them)
};

// solve_coulomb_cone's rounds of Gauss-Seidel sweeps: the first, doubled each round up to the
// longest.
inline constexpr int kFirstSweepRound = 250;
inline constexpr int kMaxSweepRound = 4000;

// upper: one bound per contact, or empty for none. stall_round: after the round of this many
// sweeps (kFirstSweepRound for the first), an answer within kStallFactor of the tolerance ends the
// rounds (counts as converged) rather than going on to kMaxSweepRound for the tolerance itself;
// rounds go on where it is not.
ConeSolution solve_coulomb_cone(const Eigen::MatrixXd& W, const Eigen::VectorXd& b, const Eigen::VectorXd& mu,
                                const Eigen::VectorXd& start, double tolerance, int max_iterations = 100,
                                const Eigen::VectorXd& upper = {}, int stall_round = kMaxSweepRound);

// The impulses at stake [N s], what tolerances are relative to: the largest of start's and of those
// that would stop one row's velocity alone, |b_k| / W_kk.
double impulse_scale(const Eigen::MatrixXd& W, const Eigen::VectorXd& b, const Eigen::VectorXd& start);

// |Phi|_inf at r.
double coulomb_cone_residual(const Eigen::MatrixXd& W, const Eigen::VectorXd& b, const Eigen::VectorXd& mu,
                             const Eigen::VectorXd& r, const Eigen::VectorXd& upper = {});

}  // namespace impactsim
