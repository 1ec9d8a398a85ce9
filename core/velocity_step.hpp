#pragma once
// One step of the Gavrea-Anitescu-Potra time-stepping family ((4.4), (4.7)-(4.8)), solved for the
// weighted velocity y = alpha v^{l+1} + (1 - alpha) v^l: substituting v^{l+1} = v^l + (y - v^l) / alpha
// and scaling the impulses by alpha (complementarity is invariant under positive scaling) turns
// every alpha into the alpha = 1 problem in y: find y and impulses with
//   M y - nu^T c_nu - J_n^T c_n - J_t^T c_t = b,      nu y = 0   (joints, (4.4c)),
// and the polyhedral Coulomb law of numerics/coulomb_lcp.hpp on [J_n; J_t] y ((4.4d-f)); where the
// space uses the circular cone (impact/circular_cone.hpp) that answer is taken on to the circular
// cone's by numerics/coulomb_cone.hpp.
// The caller forms b = M v^l + alpha h k (the explicit forces); the inelastic impact LCP of the
// scheme is the same problem with b = M v- (alpha = 1, h = 0). Impulses are the alpha-scaled ones
// (N s); signs as in impact_law.hpp. The joint impulses are eliminated with the projected inverse
// P = M^-1 - M^-1 nu^T (nu M^-1 nu^T)^-1 nu M^-1, so nu must have full row rank.
#include <string>
#include <vector>

#include "impact/circular_cone.hpp"
#include "impact/impact_law.hpp"
#include "numerics/lcp.hpp"

namespace impactsim {

struct VelocityStep {
  Eigen::VectorXd y;
  Eigen::VectorXd c_nu;      // joint impulses (rows of nu)
  Eigen::VectorXd c_n;       // per contact, >= 0
  Eigen::VectorXd c_t;       // per contact, tangent coordinates
  int lcp_variables = 0;
  LcpSolution::Method lcp_method = LcpSolution::Method::lemke;  // how its LCP was solved (support: the guess held)
  double residual = 0.0;     // lcp_residual of the solution (0 without contacts); in_cone: the cone's [N s]
  bool ok = true;
  std::string diagnostic;
};

// A large model's frictionless step without joints (kBlockwiseFrom velocities or more: W symmetric
// positive semi-definite) is first solved at a guessed support (numerics/lcp_support.hpp): the
// contacts `pressed` (positions in the space), or where none are given those that would sink
// without an impulse (J P b < 0); Lemke only where that guess is not made good. In a frictionless
// 50-sphere pile that steps through its chatter, Lemke took 60% of each step. Its impulses may
// then differ from Lemke's where W is singular (least norm on the support, not a vertex); the
// velocity y does not: every solution of a PSD LCP has the same W z, and J^T z with it.
VelocityStep solve_velocity_step(const ContactSpace& contacts, const Eigen::MatrixXd& nu, const Eigen::VectorXd& b,
                                 const LcpOptions& options = {}, const std::vector<int>* pressed = nullptr,
                                 const Eigen::VectorXd& room = {});

// The same step in the circular cone (a space that uses_circular_cone, no joints) without the
// polygon's LCP: the cone's semismooth Newton starts from each contact's normal impulse alone,
// max(0, -u_n) / W_nn with u = J M^-1 b, and no friction. Its answer solves the same equations
// to the same tolerance as solve_velocity_step's refinement of the polygon's answer, so it never
// adds energy either; where the problem has several solutions (redundant contacts: a box's face
// on four corners) it may be another of them. It skips the polygon's LCP, the step's cost in a
// pile, where Lemke's pivots often end on a ray and the proximal-point fallback repeats them (a
// 50-body pile's islands to t = 0.28 s: 270 us each on average, Newton 38 us). ok false where Newton does not
// converge: the caller then solves by solve_velocity_step. lcp_variables is 0. tolerance: of the
// cone's equations, relative to the impulses at stake (kConeTolerance, or a step's looser one).
// start: Newton's start, 3 impulses per contact (normal, tangents), NaN where a contact takes the
// normal impulse alone; empty: every contact does. Where Newton stalls, an answer within
// kStallFactor of the tolerance after the first round of the cone's sweeps ends the search
// (solve_coulomb_cone's stall round): in frictional 10- and 20-sphere piles up to half of the
// steps' cone problems that needed sweeps went on through rounds of 500 to 4,000 more (7,750 in
// all, some 20 ms on 26 contacts) for the tolerance itself, a quarter of some runs.
VelocityStep solve_velocity_step_in_cone(const ContactSpace& contacts, const Eigen::VectorXd& b,
                                         double tolerance = kConeTolerance, const Eigen::VectorXd& start = {},
                                         const Eigen::VectorXd& room = {});

}  // namespace impactsim
