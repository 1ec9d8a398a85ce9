#include "numerics/lcp.hpp"

#include <cmath>
#include <stdexcept>

#include <Eigen/LU>
#include <Eigen/QR>

namespace impactsim {
namespace {

// Lemke's tableau without its right-hand side: the columns [w (n) | z (n) | z0] of the system
// w - W z - 1 z0 = w_vec after the pivots so far, one row per basic variable. Variable k < n is w_k,
// n <= k < 2n is z_{k-n}, 2n is z0. These columns depend only on W and on the pivots taken, not on
// w_vec, which is what lets LemkePaths keep them; the right-hand side is pivoted by pivot_rhs.
//
// A basic variable's column is a unit vector, exactly: the pivot that made it basic wrote 1 and 0s
// (p / p and x - x * 1), and later pivots leave it so (its entry in the pivot row is 0). So a pivot
// updates only the n + 1 nonbasic columns, the leaving variable's among them, column by column:
// half the work of updating every column, and each entry goes through the same operations as in a
// row-by-row update of all of them (only the signs of some zeros may differ, which no comparison
// or result sees).
struct Tableau {
  Eigen::MatrixXd T;  // column-major: the pivot updates whole columns
  std::vector<int> basis;
  std::vector<int> nonbasic;  // the n + 1 columns that are not unit vectors, in no particular order

  void reset(const Eigen::MatrixXd& W) {
    const int n = static_cast<int>(W.rows());
    T.resize(n, 2 * n + 1);
    T.leftCols(n).setIdentity();
    T.middleCols(n, n) = -W;
    T.col(2 * n).setConstant(-1.0);
    basis.resize(n);
    for (int i = 0; i < n; ++i) basis[i] = i;
    nonbasic.resize(n + 1);
    for (int j = 0; j <= n; ++j) nonbasic[j] = n + j;
  }

  int n() const { return static_cast<int>(T.rows()); }
  int z0() const { return 2 * n(); }
  int complement(int var) const { return var < n() ? var + n() : var - n(); }

  // The rows that may leave when `enter` enters, with the pivots a_i = T(i, enter) of every row:
  // those above the pivot floor, or every row with a_i = 1 for the first pivot (z0's column is all
  // -1). They depend on the tableau alone, so LemkePaths keeps them with it.
  struct Candidates {
    int enter = -1;
    double pivot_tol = 0;
    std::vector<int> rows;
    std::vector<double> a;
  };
  void find_candidates(int enter, bool first, double pivot_tol, Candidates& c) const {
    const int n = this->n();
    double floor = 0;
    if (!first)
      for (int i = 0; i < n; ++i) floor = std::max(floor, std::abs(T(i, enter)));
    floor = pivot_tol * std::max(1.0, floor);
    c.enter = enter;
    c.pivot_tol = pivot_tol;
    c.rows.clear();
    c.a.resize(n);
    for (int i = 0; i < n; ++i) {
      c.a[i] = first ? 1.0 : T(i, enter);
      if (first || !(c.a[i] <= floor)) c.rows.push_back(i);
    }
  }

  // The leaving row among the candidates, or -1 for a ray. Increasing the entering variable by
  // theta changes basic variable i by -a_i theta. The first pivot (z0 entering) takes the row of
  // the smallest rhs; later ones the minimum ratio rhs_i / a_i over positive pivots. z0 leaves
  // whenever it attains the minimum, which ends the search. Other ties are broken by the
  // lexicographic rule on the rows of [rhs | B^-1] divided by their pivots: the perturbation
  // argument that makes the choice unique, hence no cycling (Cottle-Pang-Stone 4.9).
  int leaving_row(const Candidates& c, const Eigen::VectorXd& rhs, bool first, std::vector<int>& ties) const {
    double best = 0;
    ties.clear();
    for (int i : c.rows) {
      const double ratio = rhs[i] / c.a[i];
      const double tol = 1e-13 * (1 + std::abs(ratio));
      if (ties.empty() || ratio < best - tol) {
        best = ratio;
        ties.assign(1, i);
      } else if (ratio <= best + tol) {
        ties.push_back(i);
      }
    }
    if (ties.empty()) return -1;
    if (ties.size() == 1) return ties[0];
    // Drop rows that a later, smaller ratio made stale.
    std::erase_if(ties, [&](int i) { return rhs[i] / c.a[i] > best + 1e-13 * (1 + std::abs(best)); });
    if (ties.size() == 1) return ties[0];
    if (!first)
      for (int i : ties)
        if (basis[i] == z0()) return i;
    return lexicographic_tie_break(c, ties);
  }

  // The lexicographic rule over the columns of w (B^-1), in order, until one row is left. A basic
  // column is the unit vector e_r (r its basic row): its ratios are 0 on every tied row but r, and
  // 1 / a_r > 0 on r, so it drops r alone when r is tied, which is read off in O(1) rather than a
  // pass over the ties (a resting row's step LCP ties at nearly every pivot, and nearly every column
  // of w is basic). A nonbasic column is read in full. The rows left and their order are those of reading every column in full.
  int lexicographic_tie_break(const Candidates& c, std::vector<int>& ties) const {
    thread_local std::vector<int> row_of;
    thread_local std::vector<char> tied;
    const int n = this->n();
    row_of.assign(2 * n + 1, -1);
    for (int r = 0; r < n; ++r) row_of[basis[r]] = r;
    tied.assign(n, 0);
    for (int i : ties) tied[i] = 1;
    size_t live = ties.size();
    for (int k = 0; k < n && live > 1; ++k) {
      const int r = row_of[k];
      if (r >= 0) {
        // smallest = min(0, 1 / a_r) = 0; r goes where 1 / a_r > 0 + 1e-13 (1 + |0|).
        if (tied[r] && 1.0 / c.a[r] > 1e-13) {
          tied[r] = 0;
          --live;
        }
        continue;
      }
      std::erase_if(ties, [&](int i) { return !tied[i]; });
      double smallest = INFINITY;
      for (int i : ties) smallest = std::min(smallest, T(i, k) / c.a[i]);
      std::erase_if(ties, [&](int i) {
        const double x = T(i, k) / c.a[i];
        if (x <= smallest + 1e-13 * (1 + std::abs(smallest))) return false;
        tied[i] = 0;
        return true;
      });
      live = ties.size();
    }
    std::erase_if(ties, [&](int i) { return !tied[i]; });
    return ties[0];
  }

  // The pivot's effect on the columns; call pivot_rhs first, which needs the column before it.
  // Row `row` is divided by the pivot and a_i times it subtracted from every other row i, in the
  // nonbasic columns only (see above); the entering column becomes the unit vector e_row.
  void pivot(int row, int enter) {
    thread_local Eigen::VectorXd a;
    a = T.col(enter);
    const double p = a[row];
    const int leaving = basis[row];
    for (int& j : nonbasic)
      if (j == enter) j = leaving;
    for (int j : nonbasic) {
      const double c = T(row, j) / p;
      if (c != 0.0) T.col(j) -= c * a;  // x - 0 a = x: a sparse W leaves many such columns
      T(row, j) = c;
    }
    T.col(enter).setZero();
    T(row, enter) = 1.0;
    basis[row] = enter;
  }

  // The same pivot applied to a right-hand side, element for element the operations pivot applies
  // to every column, so the answer does not depend on whether the columns were pivoted alongside or
  // kept from an earlier problem.
  void pivot_rhs(int row, int enter, Eigen::VectorXd& rhs) const {
    rhs[row] /= T(row, enter);
    for (int i = 0; i < n(); ++i)
      if (i != row && T(i, enter) != 0.0) rhs[i] -= T(i, enter) * rhs[row];
  }
};

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

// Each part relative to the size of what it measures: z's to 1 + |z|_inf, the slack's to
// 1 + |w|_inf. A jammed contact set can carry internal forces far larger than w (a Drumwright step
// of a row of dominoes: |z| = 1.5e4 with |w| = 36), where the slack's rounding alone,
// eps |W| |z|, made z_i s_i look like a failure when measured against |w| only.
double lcp_residual_at(const Eigen::VectorXd& z, const Eigen::VectorXd& s, const Eigen::VectorXd& w) {
  const double w_scale = 1.0 + (w.size() ? w.cwiseAbs().maxCoeff() : 0.0);
  double z_max = 0.0, z_low = 0.0, s_low = 0.0, product = 0.0;  // one pass, the divisions after it
  for (int i = 0; i < z.size(); ++i) {
    z_max = std::max(z_max, std::abs(z[i]));
    z_low = std::max(z_low, -z[i]);
    s_low = std::max(s_low, -s[i]);
    product = std::max(product, std::abs(z[i] * s[i]));
  }
  const double z_scale = 1.0 + z_max;
  return std::max({z_low / z_scale, s_low / w_scale, product / (z_scale * w_scale)});
}

double lcp_residual(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const Eigen::VectorXd& z) {
  return lcp_residual_at(z, W * z + w, w);
}

void support_system(const Eigen::MatrixXd& W, const Eigen::VectorXd& r, const std::vector<int>& S,
                    Eigen::MatrixXd& Wss, Eigen::VectorXd& rs) {
  const int k = static_cast<int>(S.size());
  Wss.resize(k, k);
  rs.resize(k);
  for (int a = 0; a < k; ++a) {
    rs[a] = r[S[a]];
    for (int b = 0; b < k; ++b) Wss(a, b) = W(S[a], S[b]);
  }
}

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
  const int max_pivots = options.max_pivots > 0 ? options.max_pivots : 50 * n + 100;
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
  if (first.ok() || (first.status == LcpSolution::Status::pivot_limit && options.max_pivots > 0)) return first;
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

std::vector<Eigen::VectorXd> enumerate_lcp_solutions(const Eigen::MatrixXd& W, const Eigen::VectorXd& w,
                                                     double tolerance) {
  const int n = static_cast<int>(w.size());
  if (n > kMaxEnumeration)
    throw std::invalid_argument("enumerating an LCP's 2^n complementary bases is limited to n = " +
                                std::to_string(kMaxEnumeration) + " variables; this one has " + std::to_string(n));
  const double scale = 1.0 + (n ? w.cwiseAbs().maxCoeff() : 0.0);
  const double tol = tolerance * scale;
  std::vector<Eigen::VectorXd> solutions;
  std::vector<int> S;
  for (unsigned long mask = 0; mask < (1ul << n); ++mask) {
    S.clear();
    for (int i = 0; i < n; ++i)
      if (mask & (1ul << i)) S.push_back(i);
    Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
    if (!S.empty()) {
      const int k = static_cast<int>(S.size());
      Eigen::MatrixXd Wss(k, k);
      Eigen::VectorXd rhs(k);
      for (int a = 0; a < k; ++a) {
        rhs[a] = -w[S[a]];
        for (int b = 0; b < k; ++b) Wss(a, b) = W(S[a], S[b]);
      }
      const Eigen::FullPivLU<Eigen::MatrixXd> lu(Wss);
      if (!lu.isInvertible()) continue;
      const Eigen::VectorXd zs = lu.solve(rhs);
      if (zs.minCoeff() < -tol) continue;
      for (int a = 0; a < k; ++a) z[S[a]] = std::max(0.0, zs[a]);
    }
    const Eigen::VectorXd s = W * z + w;
    if (s.minCoeff() < -tol) continue;
    bool duplicate = false;
    for (const auto& other : solutions) duplicate = duplicate || (other - z).cwiseAbs().maxCoeff() <= tol;
    if (!duplicate) solutions.push_back(z);
  }
  return solutions;
}

std::string describe(LcpSolution::Status status) {
  switch (status) {
    case LcpSolution::Status::solved: return "solved";
    case LcpSolution::Status::ray_termination: return "ray termination (the LCP has no solution Lemke can reach)";
    case LcpSolution::Status::pivot_limit: return "pivot limit reached";
    case LcpSolution::Status::inaccurate: return "solution residual above tolerance (ill-conditioned problem)";
  }
  return "?";
}

}  // namespace impactsim
