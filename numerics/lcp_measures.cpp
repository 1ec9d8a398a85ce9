#include "numerics/lcp.hpp"

#include <cmath>
#include <stdexcept>

#include <Eigen/LU>

namespace impactsim {

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
