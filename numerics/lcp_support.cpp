#include "numerics/lcp_support.hpp"

#include <algorithm>

#include "numerics/pivoted_ldlt.hpp"

namespace impactsim {
namespace {

// Pivots of W_SS below this fraction of its largest diagonal entry count as zero (redundant rows).
constexpr double kSupportRank = 1e-10;

// z = 0 off S and the least-norm solution of W_SS z_S = -w_S on S.
bool solve_on(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, const std::vector<int>& S, Eigen::VectorXd& z) {
  thread_local Eigen::MatrixXd Wss;
  thread_local Eigen::VectorXd rhs, zs;
  thread_local PivotedLdlt factor;
  const int k = static_cast<int>(S.size());
  support_system(W, w, S, Wss, rhs);
  rhs = -rhs;
  z.setZero(w.size());
  if (k == 0) return true;
  if (!factor.compute(Wss, kSupportRank)) return false;
  factor.solve(rhs, zs);
  for (int a = 0; a < k; ++a) z[S[a]] = zs[a];
  return true;
}

}  // namespace

bool solve_at_support(const Eigen::MatrixXd& W, const Eigen::VectorXd& w, std::vector<int> support, LcpSolution& out,
                      double accept_tolerance) {
  out.status = LcpSolution::Status::inaccurate;  // until a round's answer is accepted
  out.method = LcpSolution::Method::support;
  out.pivots = 0;
  const int n = static_cast<int>(w.size());
  if (W.rows() != n || W.cols() != n || !W.allFinite() || !w.allFinite()) return false;
  for (int i : support)
    if (i < 0 || i >= n) return false;
  std::sort(support.begin(), support.end());
  support.erase(std::unique(support.begin(), support.end()), support.end());
  // Negatives below these (each relative to its own scale, as lcp_residual measures them) are
  // rounding of a zero (a degenerate variable), not a wrong guess.
  const double slack_floor = 1e-13 * (1.0 + w.cwiseAbs().maxCoeff());
  Eigen::VectorXd z;
  std::vector<bool> in(n, false);
  for (int round = 0; round < kSupportRounds; ++round) {
    if (!solve_on(W, w, support, z) || !z.allFinite()) return false;
    out.z = z.cwiseMax(0.0);
    out.slack = W * out.z + w;
    out.residual = lcp_residual_at(out.z, out.slack, w);
    if (out.residual <= accept_tolerance) {
      out.status = LcpSolution::Status::solved;
      return true;
    }
    const Eigen::VectorXd slack = W * z + w;
    const double z_floor = 1e-13 * (1.0 + z.cwiseAbs().maxCoeff());
    std::fill(in.begin(), in.end(), false);
    for (int i : support) in[i] = true;
    std::vector<int> next;
    for (int i = 0; i < n; ++i)
      if (in[i] ? z[i] >= -z_floor : slack[i] < -slack_floor) next.push_back(i);
    if (next == support) return false;  // nothing to move: the residual is rounding on a singular W_SS
    support.swap(next);
  }
  return false;
}

}  // namespace impactsim
