#pragma once
// Linear complementarity problems LCP(W, w): find z with
//   z >= 0,   W z + w >= 0,   z^T (W z + w) = 0
// (Halm and Posa, Def. 5, eq. (6)-(8); Cottle, Pang and Stone, "The Linear Complementarity Problem").
//
// solve_lemke: Lemke's complementary pivoting with covering vector 1 and the lexicographic
// minimum-ratio rule, so degenerate and redundant problems (parallel contacts, singular W) cannot
// cycle; a ray or an inaccurate answer is retried with smaller pivot tolerances, since rounding in a
// singular W can hide the pivot that was needed. The terminal basis is re-solved directly to polish
// the answer, and every answer is checked by its residual. A problem of at most
// kLemkeEnumerationFallback variables that Lemke still fails is solved by enumeration, and any that
// is still unsolved by the proximal-point sequence z_{k+1} = LCP(W + rho I, w - rho z_k), whose
// fixed points solve LCP(W, w) and whose every subproblem Lemke solves when W is copositive (every
// impact LCP here). What it guarantees: an answer is returned as solved only with a residual below
// accept_tolerance on the original problem. The sequence provably converges for monotone W
// (z^T W z >= 0 for every z; Rockafellar 1976); impact LCPs are copositive, not monotone, so there
// convergence is observed, not proved (tests/numerics/lcp_test.cpp and jammed_lcp_test.cpp run it
// on generated jammed impact LCPs, singular W, where Lemke alone fails). When every method fails the
// first Lemke status is returned (a ray on an LCP with no solution, such as a Painleve contact-force
// problem).
//
// enumerate_lcp_solutions: every solution at a complementary basis (W_SS z_S = -w_S with W_SS
// nonsingular), for small n, so multi-valued outcomes can be listed.
#include <string>
#include <algorithm>
#include <vector>

#include <Eigen/Core>

namespace impactsim {

struct LcpOptions {
  double pivot_tolerance = 1e-12;     // smallest usable pivot, relative to the column's largest entry
  double accept_tolerance = 1e-9;     // largest residual accepted as a solution (scaled, see lcp_residual)
  int max_pivots = 0;                 // 0: pivots_per_variable n + 100, with the fallbacks below;
                                      // > 0: a pivot limit is final
  int pivots_per_variable = 50;
  bool retry = true;                  // false: Lemke's first answer is final (no fallbacks), for a caller
                                      // that has its own way on where Lemke fails
  int retry_up_to = 0;                // > 0: the fallbacks only for problems of at most this many variables
};

// For a caller with its own way on where Lemke fails: `o` with Lemke runs of at most 2 n + 100
// pivots, and the fallbacks only for problems of at most 200 variables. Each pivot costs O(n^2): a
// frictional pile's island of 120 contacts (1,200 variables) took minutes to reach 50 n + 100
// pivots on a problem it did not solve, and the fallbacks (more Lemke runs, proximal points with a
// full-pivoting LU each) took 2 to 3 s per problem of 600 variables in a 50-box pile, 96% of the
// time its mode choices spent in Lemke (a 100-body settling pile's problems stay below 60). In
// three runs of the 50-box pile to t = 1 s, every first Lemke run of over 10 ms that found an
// answer did so within 1.07 n pivots, while the runs stopped at 5 n + 100 (30 in one of them, on
// 200 to 1,260 variables) took 60 s of its 138.
inline LcpOptions bounded(LcpOptions o) {
  o.pivots_per_variable = std::min(o.pivots_per_variable, 2);
  o.retry_up_to = 200;
  return o;
}
// bounded() defaults, with the fallbacks only where `retry`.
inline LcpOptions bounded_lemke(bool retry) {
  LcpOptions o;
  o.retry = retry;
  return bounded(o);
}
// Lemke's first answer, after at most 2 n + 100 pivots.
inline LcpOptions first_answer_only() { return bounded_lemke(false); }

struct LcpSolution {
  enum class Status { solved, ray_termination, pivot_limit, inaccurate };
  // How the answer was found: Lemke's method (perhaps with a smaller pivot tolerance), the
  // enumeration of a small problem, the proximal-point sequence, or a direct solve at a guessed
  // support (solve_at_support).
  enum class Method { lemke, enumeration, proximal, support };
  Status status = Status::solved;
  Method method = Method::lemke;
  Eigen::VectorXd z;
  Eigen::VectorXd slack;   // W z + w
  int pivots = 0;
  double residual = 0.0;   // see lcp_residual
  bool ok() const { return status == Status::solved; }
};

// max over i of: max(-z_i, 0) / (1 + |z|_inf), max(-(Wz+w)_i, 0) / (1 + |w|_inf) and
// |z_i (Wz+w)_i| / ((1 + |z|_inf) (1 + |w|_inf)).
double lcp_residual(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const Eigen::VectorXd& z);
// The same measure from a slack W z + w already formed.
double lcp_residual_at(const Eigen::VectorXd& z, const Eigen::VectorXd& slack, const Eigen::VectorXd& w);

// W_SS and r_S over the index set S (r a vector over all n variables): the system of a support.
void support_system(const Eigen::MatrixXd& W, const Eigen::VectorXd& r, const std::vector<int>& S,
                    Eigen::MatrixXd& Wss, Eigen::VectorXd& rs);

LcpSolution solve_lemke(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const LcpOptions& options = {});

// Lemke's method for many problems LCP(W, w) that share W, as the Routh sampler solves them (one W
// per impact, a new w at every step of every sample). Lemke's tableau apart from its right-hand
// side depends only on W and on the pivots taken, so the tableaux along every pivot path met so
// far are kept (a tree, at most about kLemkePathDoubles doubles of them) and a problem on a known
// path pivots only its right-hand side: n operations a pivot instead of n (2n + 2). solve returns
// solve_lemke(W, w, options) to the bit (the right-hand side goes through the same operations in
// the same order, and a problem that needs solve_lemke's fallbacks gets them from it). Not
// thread-safe: one per thread.
class LemkePaths {
 public:
  explicit LemkePaths(const Eigen::MatrixXd& W);
  ~LemkePaths();
  LemkePaths(LemkePaths&&) noexcept;
  LemkePaths& operator=(LemkePaths&&) noexcept;
  LcpSolution solve(const Eigen::VectorXd& w, const LcpOptions& options = {});
  // The same into out, reusing its storage: no allocation on a known path.
  void solve(const Eigen::VectorXd& w, LcpSolution& out, const LcpOptions& options = {});
  const Eigen::MatrixXd& W() const { return W_; }
  int tableaux() const;  // kept so far

 private:
  struct Node;
  struct Walk;
  Eigen::MatrixXd W_;
  std::vector<Node> nodes_;
};
constexpr long kLemkePathDoubles = 1l << 19;  // 4 MiB of tableaux

// All distinct solutions at complementary bases; n <= kMaxEnumeration. Throws std::invalid_argument
// above that size.
constexpr int kMaxEnumeration = 20;
// Lemke's failures on problems up to this size fall back to enumeration (2^12 small solves at most).
constexpr int kLemkeEnumerationFallback = 12;
std::vector<Eigen::VectorXd> enumerate_lcp_solutions(const Eigen::MatrixXd& W, const Eigen::VectorXd& w,
                                                     double tolerance = 1e-9);

std::string describe(LcpSolution::Status status);

}  // namespace impactsim
