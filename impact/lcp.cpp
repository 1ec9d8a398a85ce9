#include "impact/lcp.hpp"

#include <cmath>
#include <stdexcept>

#include <Eigen/LU>

namespace impactsim {
namespace {

// Tableau of Lemke's method: columns [w (n) | z (n) | z0 | rhs], one row per basic variable, for
// the system w - W z - 1 z0 = w_vec. Variable k < n is w_k, n <= k < 2n is z_{k-n}, 2n is z0.
class Tableau {
 public:
  // Reuses its storage across problems of the same size (one tableau per thread, see lemke_once).
  void reset(const Eigen::MatrixXd& W, const Eigen::VectorXd& w) {
    n_ = static_cast<int>(w.size());
    T_.resize(n_, 2 * n_ + 2);
    T_.setZero();
    T_.leftCols(n_).setIdentity();
    T_.middleCols(n_, n_) = -W;
    T_.col(2 * n_).setConstant(-1.0);
    T_.col(2 * n_ + 1) = w;
    basis_.resize(n_);
    for (int i = 0; i < n_; ++i) basis_[i] = i;
  }

  int n() const { return n_; }
  int z0() const { return 2 * n_; }
  int complement(int var) const { return var < n_ ? var + n_ : var - n_; }
  int basic(int row) const { return basis_[row]; }
  double rhs(int row) const { return T_(row, 2 * n_ + 1); }

  // The leaving row for `enter`, or -1 for a ray. Increasing the entering variable by theta changes
  // basic variable i by -T(i, enter) theta. The first pivot (z0 entering, column all -1) takes the
  // row of the smallest rhs; later ones the minimum ratio rhs_i / T(i, enter) over positive pivots.
  // z0 leaves whenever it attains the minimum, which ends the search. Other ties are broken by the
  // lexicographic rule on the rows of [rhs | B^-1] divided by their pivots: the perturbation
  // argument that makes the choice unique, hence no cycling (Cottle-Pang-Stone 4.9).
  int leaving_row(int enter, bool first, double pivot_tol) {
    double floor = 0;
    if (!first)
      for (int i = 0; i < n_; ++i) floor = std::max(floor, std::abs(T_(i, enter)));
    floor = pivot_tol * std::max(1.0, floor);
    double best = 0;
    ties_.clear();
    for (int i = 0; i < n_; ++i) {
      const double a = first ? 1.0 : T_(i, enter);
      if (!first && a <= floor) continue;
      const double ratio = rhs(i) / a;
      const double tol = 1e-13 * (1 + std::abs(ratio));
      if (ties_.empty() || ratio < best - tol) {
        best = ratio;
        ties_.assign(1, i);
      } else if (ratio <= best + tol) {
        ties_.push_back(i);
      }
    }
    if (ties_.empty()) return -1;
    // Drop rows that a later, smaller ratio made stale.
    std::erase_if(ties_, [&](int i) {
      const double ratio = rhs(i) / (first ? 1.0 : T_(i, enter));
      return ratio > best + 1e-13 * (1 + std::abs(best));
    });
    if (ties_.size() == 1) return ties_[0];
    if (!first)
      for (int i : ties_)
        if (basis_[i] == z0()) return i;
    for (int k = 0; k < n_ && ties_.size() > 1; ++k) {
      double smallest = INFINITY;
      for (int i : ties_) smallest = std::min(smallest, T_(i, k) / (first ? 1.0 : T_(i, enter)));
      std::erase_if(ties_, [&](int i) {
        const double x = T_(i, k) / (first ? 1.0 : T_(i, enter));
        return x > smallest + 1e-13 * (1 + std::abs(smallest));
      });
    }
    return ties_[0];
  }

  void pivot(int row, int enter) {
    T_.row(row) /= T_(row, enter);
    for (int i = 0; i < n_; ++i)
      if (i != row && T_(i, enter) != 0.0) T_.row(i) -= T_(i, enter) * T_.row(row);
    basis_[row] = enter;
  }

 private:
  int n_ = 0;
  std::vector<int> ties_;
  // Row-major: every pivot operation is a row operation.
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> T_;
  std::vector<int> basis_;
};

// Re-solves W_SS z_S = -w_S on the basic z variables of the terminal basis.
Eigen::VectorXd polish(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const Eigen::VectorXd& z) {
  std::vector<int> S;
  for (int i = 0; i < z.size(); ++i)
    if (z[i] > 0) S.push_back(i);
  if (S.empty()) return z;
  const int k = static_cast<int>(S.size());
  Eigen::MatrixXd Wss(k, k);
  Eigen::VectorXd ws(k);
  for (int a = 0; a < k; ++a) {
    ws[a] = -w[S[a]];
    for (int b = 0; b < k; ++b) Wss(a, b) = W(S[a], S[b]);
  }
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(Wss);
  if (!lu.isInvertible()) return z;
  const Eigen::VectorXd zs = lu.solve(ws);
  Eigen::VectorXd out = Eigen::VectorXd::Zero(z.size());
  for (int a = 0; a < k; ++a) out[S[a]] = zs[a];
  return out;
}

}  // namespace

namespace {

double residual_of(const Eigen::VectorXd& z, const Eigen::VectorXd& s, const Eigen::VectorXd& w) {
  const double scale = 1.0 + (w.size() ? w.cwiseAbs().maxCoeff() : 0.0);
  double r = 0.0;
  for (int i = 0; i < z.size(); ++i)
    r = std::max({r, -z[i], -s[i], std::abs(z[i] * s[i]) / scale});
  return r / scale;
}

}  // namespace

double lcp_residual(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const Eigen::VectorXd& z) {
  return residual_of(z, W * z + w, w);
}

namespace {

constexpr int kProximalIterations = 60;

LcpSolution lemke_once(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const LcpOptions& options) {
  const int n = static_cast<int>(w.size());
  LcpSolution out;
  out.z = Eigen::VectorXd::Zero(n);
  // w >= 0 to within rounding: z = 0 solves it (a contact that is not approaching, say).
  if (n == 0 || w.minCoeff() >= -1e-14 * (1.0 + w.cwiseAbs().maxCoeff())) {
    out.slack = w;
    out.residual = lcp_residual(W, w, out.z);
    return out;
  }
  thread_local Tableau t;
  t.reset(W, w);
  const int max_pivots = options.max_pivots > 0 ? options.max_pivots : 50 * n + 100;
  int enter = t.z0();
  bool first = true;
  while (true) {
    if (out.pivots >= max_pivots) {
      out.status = LcpSolution::Status::pivot_limit;
      break;
    }
    const int row = t.leaving_row(enter, first, options.pivot_tolerance);
    if (row < 0) {
      out.status = LcpSolution::Status::ray_termination;
      break;
    }
    const int leaving = t.basic(row);
    t.pivot(row, enter);
    ++out.pivots;
    first = false;
    if (leaving == t.z0()) break;
    enter = t.complement(leaving);
  }
  for (int r = 0; r < n; ++r)
    if (t.basic(r) >= n && t.basic(r) < 2 * n) out.z[t.basic(r) - n] = std::max(0.0, t.rhs(r));
  if (out.status != LcpSolution::Status::solved) {
    out.slack = W * out.z + w;
    out.residual = lcp_residual(W, w, out.z);
    return out;
  }
  // Polish only when the pivoting left a visible error: the tableau is exact for most small problems.
  out.slack = W * out.z + w;
  out.residual = residual_of(out.z, out.slack, w);
  if (out.residual > 1e-14) {
    Eigen::VectorXd polished = polish(W, w, out.z).cwiseMax(0.0);
    Eigen::VectorXd slack = W * polished + w;
    const double r = residual_of(polished, slack, w);
    if (r < out.residual) {
      out.z.swap(polished);
      out.slack.swap(slack);
      out.residual = r;
    }
  }
  if (out.residual > options.accept_tolerance) out.status = LcpSolution::Status::inaccurate;
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
  return best;
}

}  // namespace

// Degenerate problems (redundant contacts make W singular) leave entries of order 1e-13 where
// exact arithmetic has zeros, and then a pivot the tolerance refused may be the one that was
// needed. A ray or an inaccurate answer is therefore retried with smaller pivot tolerances; every
// answer is still checked by its residual, so a retry can only turn a failure into a verified
// solution.
LcpSolution solve_lemke(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const LcpOptions& options) {
  LcpSolution first = lemke_once(W, w, options);
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
