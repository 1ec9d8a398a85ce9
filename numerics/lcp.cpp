#include "numerics/lcp.hpp"

#include <cmath>
#include <stdexcept>

#include <Eigen/LU>
#include <Eigen/QR>

#include "numerics/lemke_tableau.hpp"

namespace impactsim {

using lemke::Tableau;

namespace {

// Re-solves W_SS z_S = -w_S on the basic z variables of the terminal basis.
Eigen::VectorXd polish(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const Eigen::VectorXd& z) {
  std::vector<int> S;
  for (int i = 0; i < z.size(); ++i)
    if (z[i] > 0) S.push_back(i);
  if (S.empty()) return z;
  Eigen::MatrixXd Wss;
  Eigen::VectorXd ws;
  support_system(W, -w, S, Wss, ws);
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(Wss);
  if (!lu.isInvertible()) return z;
  const Eigen::VectorXd zs = lu.solve(ws);
  Eigen::VectorXd out = Eigen::VectorXd::Zero(z.size());
  for (size_t a = 0; a < S.size(); ++a) out[S[a]] = zs[a];
  return out;
}

// Lemke's method can stop a pivot short on a degenerate problem: a variable whose slack is
// negative by a rounding-sized amount never entered (a time-stepping LCP of resting dominoes:
// w_i = -2.3e-9 with W_ii = 534, z_i = 0). Re-solves W_SS z_S = -w_S over the support with the
// violated variables added, as the correction of least norm from z (the system may be singular).
Eigen::VectorXd complete_support(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const Eigen::VectorXd& z) {
  const Eigen::VectorXd slack = W * z + w;
  std::vector<int> S;
  for (int i = 0; i < z.size(); ++i)
    if (z[i] > 0 || slack[i] < 0) S.push_back(i);
  if (S.empty()) return z;
  Eigen::MatrixXd Wss;
  Eigen::VectorXd rs;
  support_system(W, -slack, S, Wss, rs);
  const Eigen::VectorXd dz = Wss.completeOrthogonalDecomposition().solve(rs);
  Eigen::VectorXd out = z;
  for (size_t a = 0; a < S.size(); ++a) out[S[a]] = std::max(0.0, z[S[a]] + dz[a]);
  return out;
}

}  // namespace

namespace {

// Takes the best of up to four rounds of complete_support from out.z (each may bring in or clip
// further variables, and a round that is no better may still lead to one that is), stopping once
// the residual is accepted; out.z, slack and residual are replaced only by a smaller residual.
void complete(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, double accept_tolerance, LcpSolution& out) {
  Eigen::VectorXd z = out.z;
  for (int round = 0; round < 4 && out.residual > accept_tolerance; ++round) {
    z = complete_support(W, w, z);
    Eigen::VectorXd slack = W * z + w;
    const double r = lcp_residual_at(z, slack, w);
    if (r < out.residual) {
      out.z = z;
      out.slack.swap(slack);
      out.residual = r;
    }
  }
}

constexpr int kProximalIterations = 60;

// w >= 0 to within rounding: z = 0 solves it (a contact that is not approaching, say).
bool zero_solves(const Eigen::VectorXd& w) {
  return w.size() == 0 || w.minCoeff() >= -1e-14 * (1.0 + w.cwiseAbs().maxCoeff());
}

LcpSolution zero_solution(const Eigen::MatrixXd& W, const Eigen::VectorXd& w) {
  LcpSolution out;
  out.z = Eigen::VectorXd::Zero(w.size());
  out.slack = w;
  out.residual = lcp_residual(W, w, out.z);
  return out;
}

// Lemke's pivoting from the tableau tableaux.current() of W with right-hand side w. After each
// pivot, tableaux.advance(row, enter) makes current() the tableau after it: pivoted in place by
// lemke_once, or kept from an earlier problem by LemkePaths. Leaves the final tableau current and
// writes the answer read from it, checked and polished, into out (its storage reused).
template <class Tableaux>
void lemke_pivots(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const LcpOptions& options, Tableaux& tableaux,
                  LcpSolution& out) {
  const int n = static_cast<int>(w.size());
  out.status = LcpSolution::Status::solved;
  out.method = LcpSolution::Method::lemke;
  out.pivots = 0;
  out.z.setZero(n);
  thread_local Eigen::VectorXd rhs;
  thread_local std::vector<int> ties;
  rhs = w;
  const int max_pivots = options.max_pivots > 0 ? options.max_pivots : options.pivots_per_variable * n + 100;
  int enter = tableaux.current().z0();
  bool first = true;
  while (true) {
    if (out.pivots >= max_pivots) {
      out.status = LcpSolution::Status::pivot_limit;
      break;
    }
    const Tableau& t = tableaux.current();
    const int row = t.leaving_row(tableaux.candidates(enter, first, options.pivot_tolerance), rhs, first, ties);
    if (row < 0) {
      out.status = LcpSolution::Status::ray_termination;
      break;
    }
    const int leaving = t.basis[row];
    t.pivot_rhs(row, enter, rhs);
    tableaux.advance(row, enter);  // t may now refer to another tableau
    ++out.pivots;
    first = false;
    if (leaving == 2 * n) break;
    enter = leaving < n ? leaving + n : leaving - n;
  }
  const std::vector<int>& basis = tableaux.current().basis;
  for (int r = 0; r < n; ++r)
    if (basis[r] >= n && basis[r] < 2 * n) out.z[basis[r] - n] = std::max(0.0, rhs[r]);
  // slack = W z + w, written so as to need no temporary (the same operations as W * z + w).
  out.slack.noalias() = W * out.z;
  out.slack += w;
  out.residual = lcp_residual_at(out.z, out.slack, w);
  if (out.status != LcpSolution::Status::solved) return;
  // Polish only when the pivoting left a visible error: the tableau is exact for most small problems.
  if (out.residual > 1e-14) {
    Eigen::VectorXd polished = polish(W, w, out.z).cwiseMax(0.0);
    Eigen::VectorXd slack = W * polished + w;
    const double r = lcp_residual_at(polished, slack, w);
    if (r < out.residual) {
      out.z.swap(polished);
      out.slack.swap(slack);
      out.residual = r;
    }
  }
  if (out.residual > options.accept_tolerance) complete(W, w, options.accept_tolerance, out);
  if (out.residual > options.accept_tolerance) out.status = LcpSolution::Status::inaccurate;
}

// One tableau, pivoted in place (one per thread: its storage is reused across problems).
struct TableauInPlace {
  Tableau& t;
  const Tableau& current() const { return t; }
  const Tableau::Candidates& candidates(int enter, bool first, double pivot_tol) {
    thread_local Tableau::Candidates c;
    t.find_candidates(enter, first, pivot_tol, c);
    return c;
  }
  void advance(int row, int enter) { t.pivot(row, enter); }
};

LcpSolution lemke_once(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const LcpOptions& options) {
  if (zero_solves(w)) return zero_solution(W, w);
  thread_local Tableau t;
  t.reset(W);
  TableauInPlace in_place{t};
  LcpSolution out;
  lemke_pivots(W, w, options, in_place, out);
  return out;
}

// The proximal-point sequence (Rockafellar 1976; Cottle, Pang and Stone §5.6): z_{k+1} solves
// LCP(W + rho I, w - rho z_k). For copositive W (every impact and contact-force LCP here: the
// friction rows cancel in z^T W z) W + rho I is strictly copositive, so Lemke's method solves each
// subproblem (Cottle-Pang-Stone 4.4.9) however singular W is; a fixed point solves LCP(W, w) itself,
// since (W + rho I) z + w - rho z = W z + w. Each rho from small to large (better conditioned,
// slower to converge) is iterated until the residual of the original problem is accepted.
LcpSolution solve_proximal(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const LcpOptions& options) {
  const int n = static_cast<int>(w.size());
  const double scale = std::max(W.diagonal().cwiseAbs().maxCoeff(), 1e-300);
  LcpSolution best;
  best.status = LcpSolution::Status::inaccurate;
  best.residual = INFINITY;
  Eigen::MatrixXd W_rho = W;
  for (double rel : {1e-10, 1e-8, 1e-6, 1e-4, 1e-2}) {
    const double rho = rel * scale;
    W_rho.diagonal() = W.diagonal().array() + rho;
    Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
    for (int k = 0; k < kProximalIterations; ++k) {
      LcpOptions sub = options;
      sub.accept_tolerance = INFINITY;  // judged below against the original problem
      LcpSolution s = lemke_once(W_rho, w - rho * z, sub);
      best.pivots += s.pivots;
      if (s.status != LcpSolution::Status::solved) break;
      const double step = (s.z - z).cwiseAbs().maxCoeff();
      z = s.z;
      Eigen::VectorXd polished = polish(W, w, z).cwiseMax(0.0);
      for (const Eigen::VectorXd* c : {&z, &polished}) {
        const double r = lcp_residual(W, w, *c);
        if (r < best.residual) {
          best.z = *c;
          best.residual = r;
        }
      }
      if (best.residual <= options.accept_tolerance) {
        best.status = LcpSolution::Status::solved;
        best.method = LcpSolution::Method::proximal;
        best.slack = W * best.z + w;
        return best;
      }
      if (step <= 1e-15 * (1.0 + z.cwiseAbs().maxCoeff())) break;  // converged to a point that is not accepted
    }
  }
  if (best.z.size() == 0) best.z = Eigen::VectorXd::Zero(n);
  best.slack = W * best.z + w;
  complete(W, w, options.accept_tolerance, best);
  if (best.residual <= options.accept_tolerance) {
    best.status = LcpSolution::Status::solved;
    best.method = LcpSolution::Method::proximal;
  }
  return best;
}

// What solve_lemke makes of `first`, Lemke's answer at the caller's pivot tolerance (lemke_once's,
// or the same from LemkePaths). Degenerate problems (redundant contacts make W singular) leave
// entries of order 1e-13 where exact arithmetic has zeros, and then a pivot the tolerance refused
// may be the one that was needed. A ray or an inaccurate answer is therefore retried with smaller
// pivot tolerances; every answer is still checked by its residual, so a retry can only turn a
// failure into a verified solution.
LcpSolution after_first_lemke(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const LcpOptions& options,
                              LcpSolution first) {
  // A pivot limit the caller set is final: it capped the effort on purpose.
  if (first.ok() || !options.retry || (first.status == LcpSolution::Status::pivot_limit && options.max_pivots > 0))
    return first;
  if (options.retry_up_to > 0 && w.size() > options.retry_up_to) return first;
  for (double tol : {1e-15, 1e-18}) {
    if (tol >= options.pivot_tolerance || first.status == LcpSolution::Status::pivot_limit) continue;
    LcpOptions retry = options;
    retry.pivot_tolerance = tol;
    LcpSolution s = lemke_once(W, w, retry);
    s.pivots += first.pivots;
    if (s.ok()) return s;
  }
  // Friction makes impact LCPs copositive but not copositive-plus, where Lemke may end in a ray on a
  // solvable problem. A small one is then solved exactly by enumeration.
  if (w.size() <= kLemkeEnumerationFallback) {
    const std::vector<Eigen::VectorXd> all = enumerate_lcp_solutions(W, w, options.accept_tolerance);
    if (!all.empty()) {
      LcpSolution s;
      s.z = all.front();
      s.slack = W * s.z + w;
      s.residual = lcp_residual(W, w, s.z);
      s.pivots = first.pivots;
      s.method = LcpSolution::Method::enumeration;
      if (s.residual <= options.accept_tolerance) return s;
    }
  }
  if (LcpSolution s = solve_proximal(W, w, options); s.ok()) {
    s.pivots += first.pivots;
    return s;
  }
  return first;
}

}  // namespace

LcpSolution solve_lemke(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const LcpOptions& options) {
  return after_first_lemke(W, w, options, lemke_once(W, w, options));
}

// A tableau reached by a pivot path from the first one; child[row] is the node after pivoting on
// row (the entering variable is fixed by the path), -1 while unknown.
struct LemkePaths::Node {
  Tableau tableau;
  std::vector<int> child;
  Tableau::Candidates candidates;  // of the entering variable on the path here, once found
};

// Walks the tree during one solve, adding the tableaux it meets while there is room and pivoting a
// copy in place beyond that.
struct LemkePaths::Walk {
  std::vector<Node>& nodes;
  int node = 0;
  bool off_tree = false;
  static Tableau& scratch() {
    thread_local Tableau t;
    return t;
  }
  const Tableau& current() const { return off_tree ? scratch() : nodes[node].tableau; }
  const Tableau::Candidates& candidates(int enter, bool first, double pivot_tol) {
    Tableau::Candidates& c = off_tree ? scratch_candidates() : nodes[node].candidates;
    if (off_tree || c.enter != enter || c.pivot_tol != pivot_tol) current().find_candidates(enter, first, pivot_tol, c);
    return c;
  }
  static Tableau::Candidates& scratch_candidates() {
    thread_local Tableau::Candidates c;
    return c;
  }
  void advance(int row, int enter) {
    if (off_tree) return scratch().pivot(row, enter);
    const int n = nodes[node].tableau.n();
    if (nodes[node].child[row] < 0 && static_cast<long>(nodes.size() + 1) * n * (2 * n + 1) <= kLemkePathDoubles) {
      Node next{nodes[node].tableau, std::vector<int>(n, -1), {}};
      next.tableau.pivot(row, enter);
      nodes.push_back(std::move(next));
      nodes[node].child[row] = static_cast<int>(nodes.size()) - 1;
    }
    if (nodes[node].child[row] >= 0) {
      node = nodes[node].child[row];
      return;
    }
    scratch() = nodes[node].tableau;
    scratch().pivot(row, enter);
    off_tree = true;
  }
};

LemkePaths::LemkePaths(const Eigen::MatrixXd& W) : W_(W) {
  Node root;
  root.tableau.reset(W);
  root.child.assign(W.rows(), -1);
  nodes_.push_back(std::move(root));
}

LemkePaths::~LemkePaths() = default;
LemkePaths::LemkePaths(LemkePaths&&) noexcept = default;
LemkePaths& LemkePaths::operator=(LemkePaths&&) noexcept = default;

int LemkePaths::tableaux() const { return static_cast<int>(nodes_.size()); }

LcpSolution LemkePaths::solve(const Eigen::VectorXd& w, const LcpOptions& options) {
  LcpSolution out;
  solve(w, out, options);
  return out;
}

void LemkePaths::solve(const Eigen::VectorXd& w, LcpSolution& out, const LcpOptions& options) {
  if (w.size() != W_.rows())
    throw std::invalid_argument("LemkePaths: w has " + std::to_string(w.size()) + " entries, W " +
                                std::to_string(W_.rows()) + " rows");
  if (zero_solves(w)) {
    out = zero_solution(W_, w);
    return;
  }
  Walk walk{nodes_};
  lemke_pivots(W_, w, options, walk, out);
  if (!out.ok()) out = after_first_lemke(W_, w, options, std::move(out));
}

}  // namespace impactsim
