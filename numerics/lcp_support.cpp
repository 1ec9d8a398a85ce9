#include "numerics/lcp_support.hpp"

#include <algorithm>

#include <Eigen/LU>

#include "numerics/pivoted_ldlt.hpp"

namespace impactsim {
namespace {

// Pivots of W_SS below this fraction of its largest diagonal entry count as zero (redundant rows).
constexpr double kSupportRank = 1e-10;
// Rounds of block swaps that do not lower the number of infeasible variables before Murty's
// single swaps take over (Judice and Pires' p).
constexpr int kBlockTries = 3;
// Indices that entered or left the factored base before it is factored again: the bordered
// system's Schur complement, m x m, is rebuilt each round from m^2 dot products of |B| entries.
constexpr int kMaxBorder = 24;

int support_rounds(int n) { return kSupportRoundsFirst + n / kSupportRoundsPer; }

// W_SS z_S = -w_S for supports S near a base B whose W_BB is factored once (its basic rows: a
// singular W_SS leaves its redundant rows out, at z = 0). S = (B \ R) + A is solved through the
// bordered system
//   [W_BB  W_BA  E_R] [z_B]   [-w_B]
//   [W_AB  W_AA  0  ] [z_A] = [-w_A]        (E_R: the columns of I_B at R; mu frees R's rows)
//   [E_R^T 0     0  ] [mu ]   [ 0  ]
// by its Schur complement C = [W_AA 0; 0 0] - U^T G U, U = [W_BA E_R], G = W_BB^-1: G's columns
// G W_Bj (j entering) and G e_j (j leaving) are kept per index, |B|^2 each the first time, where a
// new factorization costs |S|^3 / 3.
class BorderedSupport {
 public:
  BorderedSupport(const Eigen::MatrixXd& W, const Eigen::VectorXd& w) : W_(W), w_(w), slot_(w.size(), -1) {}

  // z (zero off the solved support) for the support `in`; basic[i]: i is in the solved support.
  // False where W_SS is not finite.
  bool solve(const std::vector<char>& in, Eigen::VectorXd& z, std::vector<char>& basic) {
    border(in);
    if (!factored_ || static_cast<int>(border_.size()) > kMaxBorder || !solve_bordered(z)) {
      std::vector<int> S;
      for (int i = 0; i < static_cast<int>(in.size()); ++i)
        if (in[i]) S.push_back(i);
      if (!factor_base(S)) return false;
      border_.clear();  // S's redundant rows, off the base, stay out at z = 0
      if (!solve_bordered(z)) return false;
    }
    std::fill(basic.begin(), basic.end(), 0);
    for (int i : base_)
      if (in[i]) basic[i] = 1;
    for (int i : border_)
      if (in[i]) basic[i] = 1;
    return true;
  }

 private:
  const Eigen::MatrixXd& W_;
  const Eigen::VectorXd& w_;
  PivotedLdlt factor_;
  bool factored_ = false;
  std::vector<int> base_;     // B in pivot order
  std::vector<int> pos_;      // pos_[i]: i's place in base_, or -1
  Eigen::VectorXd g_;         // G (-w_B)
  std::vector<int> border_;   // A then R, in index order
  std::vector<int> slot_;     // slot_[i]: i's column of cols_, or -1
  Eigen::MatrixXd cols_;      // G W_Bj or G e_j
  int used_ = 0;

  bool factor_base(const std::vector<int>& S) {
    thread_local Eigen::MatrixXd Wss;
    thread_local Eigen::VectorXd rs;
    support_system(W_, w_, S, Wss, rs);
    factored_ = factor_.compute(Wss, kSupportRank, false);
    if (!factored_) return false;
    const int r = factor_.rank();
    base_.resize(r);
    pos_.assign(w_.size(), -1);
    g_.resize(r);
    for (int k = 0; k < r; ++k) {
      base_[k] = S[factor_.pivot(k)];
      pos_[base_[k]] = k;
      g_[k] = -w_[base_[k]];
    }
    factor_.solve_leading(g_);
    std::fill(slot_.begin(), slot_.end(), -1);
    used_ = 0;
    return true;
  }

  // border_: the indices in `in` off the base, then those of the base not in `in`.
  void border(const std::vector<char>& in) {
    border_.clear();
    if (!factored_) return;
    for (int i = 0; i < static_cast<int>(in.size()); ++i)
      if (in[i] && pos_[i] < 0) border_.push_back(i);
    for (int i : base_)
      if (!in[i]) border_.push_back(i);
  }

  // Makes border index j's column of cols_: G W_Bj for j off the base, G e_j for j on it. May
  // reallocate cols_, so every column a solve reads is made before any is read.
  void make_column(int j) {
    if (slot_[j] >= 0) return;
    const int r = static_cast<int>(base_.size());
    if (cols_.rows() != r || used_ == cols_.cols()) cols_.conservativeResize(r, std::max(8, 2 * used_));
    auto c = cols_.col(used_);
    if (pos_[j] < 0) {
      for (int k = 0; k < r; ++k) c[k] = W_(base_[k], j);
    } else {
      c.setZero();
      c[pos_[j]] = 1.0;
    }
    factor_.solve_leading(c);
    slot_[j] = used_++;
  }
  Eigen::MatrixXd::ConstColXpr column(int j) const { return cols_.col(slot_[j]); }

  // U_j^T x for border index j: W_Bj^T x where j enters, x at j's place where it leaves.
  template <typename Vector>
  double u_dot(int j, const Vector& x) const {
    if (pos_[j] >= 0) return x[pos_[j]];
    double s = 0.0;
    for (int k = 0; k < static_cast<int>(base_.size()); ++k) s += W_(base_[k], j) * x[k];
    return s;
  }

  bool solve_bordered(Eigen::VectorXd& z) {
    const int m = static_cast<int>(border_.size()), r = static_cast<int>(base_.size());
    z.setZero(w_.size());
    thread_local Eigen::MatrixXd C;
    thread_local Eigen::VectorXd rhs, zB, y;
    thread_local Eigen::FullPivLU<Eigen::MatrixXd> lu;
    C.resize(m, m);
    rhs.resize(m);
    for (int j : border_) make_column(j);
    for (int a = 0; a < m; ++a) {
      const int j = border_[a];
      const bool entering = pos_[j] < 0;
      rhs[a] = (entering ? -w_[j] : 0.0) - u_dot(j, g_);
      for (int b = 0; b < m; ++b) {
        const int l = border_[b];
        C(a, b) = (entering && pos_[l] < 0 ? W_(j, l) : 0.0) - u_dot(j, column(l));
      }
    }
    zB = g_;
    if (m > 0) {
      lu.compute(C);
      if (lu.rank() < m) return false;
      y = lu.solve(rhs);
      if (!y.allFinite()) return false;
      for (int a = 0; a < m; ++a) {
        zB.noalias() -= y[a] * column(border_[a]);
        if (pos_[border_[a]] < 0) z[border_[a]] = y[a];
      }
    }
    for (int k = 0; k < r; ++k) z[base_[k]] = zB[k];
    for (int j : border_)
      if (pos_[j] >= 0) z[j] = 0.0;
    return z.allFinite();
  }
};

}  // namespace

bool solve_at_support(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, std::vector<int> support, LcpSolution& out,
                      double accept_tolerance) {
  out.status = LcpSolution::Status::inaccurate;  // until a round's answer is accepted
  out.method = LcpSolution::Method::support;
  out.pivots = 0;
  const int n = static_cast<int>(w.size());
  if (W.rows() != n || W.cols() != n || !W.allFinite() || !w.allFinite()) return false;
  std::vector<char> in(n, 0), basic(n, 0);
  for (int i : support) {
    if (i < 0 || i >= n) return false;
    in[i] = 1;
  }
  // Negatives below these (each relative to its own scale, as lcp_residual measures them) are
  // rounding of a zero (a degenerate variable), not a wrong guess.
  const double slack_floor = 1e-13 * (1.0 + w.cwiseAbs().maxCoeff());
  BorderedSupport system(W, w);
  Eigen::VectorXd z, slack;
  std::vector<int> infeasible;
  int fewest = n + 1, tries_left = kBlockTries;
  for (int round = 0; round < support_rounds(n); ++round) {
    if (!system.solve(in, z, basic)) return false;
    out.z = z.cwiseMax(0.0);
    out.slack.noalias() = W * out.z;
    out.slack += w;
    out.residual = lcp_residual_at(out.z, out.slack, w);
    if (out.residual <= accept_tolerance) {
      out.status = LcpSolution::Status::solved;
      return true;
    }
    slack.noalias() = W * z;
    slack += w;
    const double z_floor = 1e-13 * (1.0 + z.cwiseAbs().maxCoeff());
    infeasible.clear();
    for (int i = 0; i < n; ++i)
      if (basic[i] ? z[i] < -z_floor : slack[i] < -slack_floor) infeasible.push_back(i);
    if (infeasible.empty()) return false;  // nothing to move: the residual is rounding on a singular W_SS
    const int count = static_cast<int>(infeasible.size());
    if (count < fewest) {
      fewest = count;
      tries_left = kBlockTries;
    } else if (tries_left > 0) {
      --tries_left;
    } else {
      infeasible.erase(infeasible.begin(), infeasible.end() - 1);  // Murty's rule: the last index alone
    }
    in = basic;
    for (int i : infeasible) in[i] = !in[i];
  }
  return false;
}

LcpSolution solve_psd_lcp(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, std::vector<int> guess,
                          const LcpOptions& options) {
  LcpSolution s;
  if (solve_at_support(W, w, std::move(guess), s, options.accept_tolerance)) return s;
  return solve_lemke(W, w, options);
}

}  // namespace impactsim
