#include "numerics/conic_qp.hpp"

#include <cmath>
#include <limits>

#include <Eigen/Cholesky>

#include "numerics/short_number.hpp"

namespace impactsim {
namespace {

double cone_slack(const SecondOrderCone& k, const Eigen::VectorXd& x) {
  double members = 0.0;
  for (int i : k.members) members += x(i) * x(i);
  const double a = k.scale * x(k.axis);
  return a > 0 ? a * a - members : -1.0;
}

double objective(const ConicQp& p, const Eigen::VectorXd& x) { return 0.5 * x.dot(p.P * x) + p.c.dot(x); }

// t f(x) + barrier(x); +infinity outside the interior.
double penalized(const ConicQp& p, const Eigen::VectorXd& x, double t) {
  if (!strictly_feasible(p, x)) return std::numeric_limits<double>::infinity();
  double value = t * objective(p, x);
  if (p.A.rows() > 0) value -= (p.A * x - p.b).array().log().sum();
  for (const SecondOrderCone& k : p.cones) value -= std::log(cone_slack(k, x));
  return value;
}

void barrier_derivatives(const ConicQp& p, const Eigen::VectorXd& x, Eigen::VectorXd& g, Eigen::MatrixXd& H) {
  if (p.A.rows() > 0) {
    const Eigen::VectorXd inv = (p.A * x - p.b).cwiseInverse();
    g.noalias() -= p.A.transpose() * inv;
    H.noalias() += p.A.transpose() * inv.cwiseAbs2().asDiagonal() * p.A;
  }
  Eigen::VectorXd grad_D(x.size());
  for (const SecondOrderCone& k : p.cones) {
    const double D = cone_slack(k, x);
    grad_D.setZero();
    grad_D(k.axis) = 2 * k.scale * k.scale * x(k.axis);
    for (int i : k.members) grad_D(i) = -2 * x(i);
    g.noalias() -= grad_D / D;
    H.noalias() += grad_D * grad_D.transpose() / (D * D);
    H(k.axis, k.axis) -= 2 * k.scale * k.scale / D;
    for (int i : k.members) H(i, i) += 2 / D;
  }
}

}  // namespace

bool strictly_feasible(const ConicQp& p, const Eigen::VectorXd& x) {
  if (!x.allFinite()) return false;
  if (p.A.rows() > 0 && !((p.A * x - p.b).array() > 0).all()) return false;
  for (const SecondOrderCone& k : p.cones)
    if (!(cone_slack(k, x) > 0)) return false;
  return true;
}

ConicQpResult solve_conic_qp(const ConicQp& p, const Eigen::VectorXd& x0, double gap_tolerance) {
  ConicQpResult r;
  r.x = x0;
  if (!strictly_feasible(p, x0)) {
    r.ok = false;
    r.diagnostic = "the starting point is not strictly feasible";
    return r;
  }
  const int n = static_cast<int>(x0.size());
  const double barrier_weight = static_cast<double>(p.A.rows() + 2 * p.cones.size());
  if (barrier_weight == 0) {  // unconstrained
    r.x = -p.P.ldlt().solve(p.c);
    return r;
  }
  Eigen::VectorXd g(n), dx(n), trial(n);
  Eigen::MatrixXd H(n, n);
  Eigen::LDLT<Eigen::MatrixXd> ldlt;
  double t = barrier_weight / std::max(1.0, std::abs(objective(p, r.x)));
  for (int outer = 0; outer < 100; ++outer) {
    for (int inner = 0; inner < 200; ++inner) {
      g = t * (p.P * r.x + p.c);
      H = t * p.P;
      barrier_derivatives(p, r.x, g, H);
      ldlt.compute(H);
      dx = -ldlt.solve(g);
      const double decrement = -g.dot(dx);
      ++r.newton_steps;
      if (!(decrement > 1e-14)) break;
      const double f0 = penalized(p, r.x, t);
      double s = 1.0;
      for (int k = 0; k < 80; ++k, s *= 0.5) {
        trial = r.x + s * dx;
        if (penalized(p, trial, t) <= f0 - 0.25 * s * decrement) break;
      }
      if (!strictly_feasible(p, trial)) break;
      const bool stalled = (trial - r.x).cwiseAbs().maxCoeff() <= 1e-16 * (1 + r.x.cwiseAbs().maxCoeff());
      r.x = trial;
      if (decrement < 1e-10 || stalled) break;
    }
    r.gap = barrier_weight / t;
    if (r.gap <= gap_tolerance) return r;
    t *= 8;
  }
  r.ok = false;
  r.diagnostic = "barrier method did not converge (gap bound " + short_number(r.gap) + ")";
  return r;
}

}  // namespace impactsim
