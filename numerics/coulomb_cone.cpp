#include "numerics/coulomb_cone.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

namespace impactsim {
namespace {

double cap_of(const Eigen::VectorXd& upper, Eigen::Index i) {
  return upper.size() ? upper[i] : std::numeric_limits<double>::infinity();
}

// Phi at r, and where G is given its generalized Jacobian (one element of Clarke's).
Eigen::VectorXd alart_curnier(const Eigen::MatrixXd& W, const Eigen::VectorXd& b, const Eigen::VectorXd& mu,
                              const Eigen::VectorXd& upper, const Eigen::VectorXd& r, Eigen::MatrixXd* G) {
  const Eigen::Index m = mu.size();
  const Eigen::VectorXd u = W * r + b;
  Eigen::VectorXd phi(3 * m);
  if (G) G->setIdentity(3 * m, 3 * m);
  for (Eigen::Index i = 0; i < m; ++i) {
    const Eigen::Index n = 3 * i;
    const double rho = W(n, n) > 0 ? 1.0 / W(n, n) : 1.0;
    const double xi = r[n] - rho * u[n];
    const double cap = cap_of(upper, i);
    const double held = std::clamp(xi, 0.0, cap);
    const bool pressed = xi > 0 && xi < cap;  // where the clamp passes xi on
    phi[n] = r[n] - held;
    // d xi / d r = e_n - rho W_n
    Eigen::RowVectorXd dxi = -rho * W.row(n);
    dxi[n] += 1.0;
    if (G && pressed) G->row(n) -= dxi;
    const double R = mu[i] * held;
    const Eigen::Vector2d y = r.segment<2>(n + 1) - rho * u.segment<2>(n + 1);
    const double ny = y.norm();
    const bool inside = R > 0 && ny <= R;
    const Eigen::Vector2d proj = inside ? y : (ny > 0 ? Eigen::Vector2d(R * y / ny) : Eigen::Vector2d::Zero());
    phi.segment<2>(n + 1) = r.segment<2>(n + 1) - proj;
    if (!G) continue;
    // d y / d r = E_t - rho W_t
    Eigen::MatrixXd dy = -rho * W.middleRows(n + 1, 2);
    dy(0, n + 1) += 1.0;
    dy(1, n + 2) += 1.0;
    Eigen::Matrix2d dproj_dy = Eigen::Matrix2d::Zero();
    Eigen::Vector2d dproj_dR = Eigen::Vector2d::Zero();
    if (inside) {
      dproj_dy.setIdentity();
    } else if (ny > 0) {
      const Eigen::Vector2d yhat = y / ny;
      dproj_dy = R / ny * (Eigen::Matrix2d::Identity() - yhat * yhat.transpose());
      dproj_dR = yhat;
    }
    G->middleRows(n + 1, 2).noalias() -= dproj_dy.lazyProduct(dy);  // 2 x 2 times 2 x 3m: no GEMM packing per contact
    if (pressed) G->middleRows(n + 1, 2) -= mu[i] * dproj_dR * dxi;
  }
  return phi;
}

}  // namespace

double impulse_scale(const Eigen::MatrixXd& W, const Eigen::VectorXd& b, const Eigen::VectorXd& start) {
  double scale = start.size() ? start.cwiseAbs().maxCoeff() : 0.0;
  for (Eigen::Index k = 0; k < b.size(); ++k)
    if (W(k, k) > 0) scale = std::max(scale, std::abs(b[k]) / W(k, k));
  return scale;
}

double coulomb_cone_residual(const Eigen::MatrixXd& W, const Eigen::VectorXd& b, const Eigen::VectorXd& mu,
                             const Eigen::VectorXd& r, const Eigen::VectorXd& upper) {
  return r.size() ? alart_curnier(W, b, mu, upper, r, nullptr).cwiseAbs().maxCoeff() : 0.0;
}

namespace {

void zero_frictionless(const Eigen::VectorXd& mu, Eigen::VectorXd& r) {
  for (Eigen::Index i = 0; i < mu.size(); ++i)
    if (mu[i] == 0) r.segment<2>(3 * i + 1).setZero();
}

// Armijo on |Phi|^2 / 2 along `step` from r: the step length t taken (a semismooth Newton step
// is taken whole near the answer), or 0 where no length descends.
double line_search(const Eigen::MatrixXd& W, const Eigen::VectorXd& b, const Eigen::VectorXd& mu,
                   const Eigen::VectorXd& upper, const Eigen::VectorXd& r, const Eigen::VectorXd& phi,
                   const Eigen::VectorXd& step) {
  if (!step.allFinite()) return 0.0;
  const double merit = 0.5 * phi.squaredNorm();
  double t = 1.0;
  Eigen::VectorXd trial_phi;
  for (int j = 0; j < 40; ++j, t *= 0.5) {
    trial_phi = alart_curnier(W, b, mu, upper, r + t * step, nullptr);
    if (0.5 * trial_phi.squaredNorm() <= (1.0 - 1e-4 * t) * merit) return t;
  }
  return 0.5 * trial_phi.squaredNorm() < merit ? t : 0.0;  // (the last length halved once more)
}

// Damped semismooth Newton from s.r until the residual is within tolerance, the step gives no
// descent, or max_iterations. Dependent contact rows make G singular where they press: the
// least-norm step, by a complete orthogonal decomposition. From kLuFrom rows on, the step of
// G + delta I (delta = 1e-9 against G's O(1) entries: a Levenberg-Marquardt step, which tends to a
// solution of G x = -Phi as delta -> 0 where one exists) by LU is tried first, and the least-norm
// step only where it gives no descent: a blocked LU costs a quarter of the column-pivoting QR on
// 360 rows (a 50-box pile's island of 120 contacts, whose steps spent 74% of their time there).
// The equations and their tolerance are unchanged; only the path to them is.
constexpr Eigen::Index kLuFrom = 96;

// G's rows couple only contacts that share a moving body (W = J M^-1 J^T), so a pile's G is
// sparse: 8% of its entries in a 50-box pile's islands of 50 to 120 contacts, where a sparse LU
// (COLAMD's column order; its factors hold 1.4 times G's entries) took 0.28 ms against the dense
// LU's 0.77 ms. A G denser than kSparseBelow (one body's many contacts) keeps the dense LU.
constexpr double kSparseBelow = 0.25;
Eigen::VectorXd lu_step(const Eigen::MatrixXd& G, const Eigen::VectorXd& phi, ConeSolution& s) {
  const Eigen::MatrixXd shifted = G + 1e-9 * Eigen::MatrixXd::Identity(G.rows(), G.cols());
  const Eigen::Index nonzeros = (shifted.array() != 0.0).count();
  if (static_cast<double>(nonzeros) >= kSparseBelow * static_cast<double>(shifted.size()))
    return Eigen::PartialPivLU<Eigen::MatrixXd>(shifted).solve(-phi);
  ++s.sparse_lu_steps;
  const Eigen::SparseMatrix<double> sparse = shifted.sparseView();
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu;
  lu.analyzePattern(sparse);
  lu.factorize(sparse);
  if (lu.info() != Eigen::Success) return Eigen::VectorXd::Constant(phi.size(), NAN);  // no descent: least-norm
  return lu.solve(-phi);
}

void newton(const Eigen::MatrixXd& W, const Eigen::VectorXd& b, const Eigen::VectorXd& mu, const Eigen::VectorXd& upper,
            double tolerance, int max_iterations, ConeSolution& s) {
  Eigen::MatrixXd G;
  Eigen::VectorXd phi = alart_curnier(W, b, mu, upper, s.r, &G);
  for (int k = 0;; ++k, ++s.iterations) {
    s.residual = phi.cwiseAbs().maxCoeff();
    s.converged = s.residual <= tolerance;
    if (s.converged || k == max_iterations) return;
    Eigen::VectorXd step;
    double t = 0.0;
    if (G.rows() >= kLuFrom) {
      step = lu_step(G, phi, s);
      t = line_search(W, b, mu, upper, s.r, phi, step);
    }
    if (t == 0.0) {
      step = G.completeOrthogonalDecomposition().solve(-phi);
      t = line_search(W, b, mu, upper, s.r, phi, step);
      ++s.least_norm_steps;
    }
    if (t == 0.0) return;  // no descent left
    s.r += t * step;
    zero_frictionless(mu, s.r);
    phi = alart_curnier(W, b, mu, upper, s.r, &G);
  }
}

// Projected Gauss-Seidel (Jean and Moreau's nonsmooth contact dynamics): contact by contact, the
// normal impulse projected on [0, upper], then the friction on its disc, each with the latest
// impulses of the others. Slow but steady where Newton's merit has a false minimum.
void gauss_seidel(const Eigen::MatrixXd& W, const Eigen::VectorXd& b, const Eigen::VectorXd& mu,
                  const Eigen::VectorXd& upper, int sweeps, Eigen::VectorXd& r) {
  const Eigen::Index m = mu.size();
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (Eigen::Index i = 0; i < m; ++i) {
      const Eigen::Index n = 3 * i;
      if (W(n, n) <= 0) continue;
      r[n] = std::clamp(r[n] - (W.row(n).dot(r) + b[n]) / W(n, n), 0.0, cap_of(upper, i));
      const double Wt = std::max(W(n + 1, n + 1), W(n + 2, n + 2));
      if (mu[i] == 0 || Wt <= 0) continue;
      const Eigen::Vector2d u = W.middleRows<2>(n + 1) * r + b.segment<2>(n + 1);
      const Eigen::Vector2d y = r.segment<2>(n + 1) - u / Wt;
      const double R = mu[i] * r[n];
      r.segment<2>(n + 1) = y.norm() <= R ? y : Eigen::Vector2d(y.norm() > 0 ? Eigen::Vector2d(R * y.normalized()) : Eigen::Vector2d::Zero());
    }
}

// Rounding can leave an answer within tolerance of the cone but outside it (a normal impulse of
// -1e-24 N s): moved onto it, by less than the residual.
void keep_in_cone(const Eigen::VectorXd& mu, const Eigen::VectorXd& upper, Eigen::VectorXd& r) {
  for (Eigen::Index i = 0; i < mu.size(); ++i) {
    r[3 * i] = std::clamp(r[3 * i], 0.0, cap_of(upper, i));
    const double R = mu[i] * r[3 * i], p = r.segment<2>(3 * i + 1).norm();
    if (p > R) r.segment<2>(3 * i + 1) *= R / p;
  }
}

}  // namespace

ConeSolution solve_coulomb_cone(const Eigen::MatrixXd& W, const Eigen::VectorXd& b, const Eigen::VectorXd& mu,
                                const Eigen::VectorXd& start, double tolerance, int max_iterations,
                                const Eigen::VectorXd& upper) {
  ConeSolution s;
  s.r = start;
  zero_frictionless(mu, s.r);
  if (start.size() == 0) {
    s.converged = true;
    return s;
  }
  newton(W, b, mu, upper, tolerance, max_iterations, s);
  // Each round sweeps twice as long: a false minimum's basin can need thousands of sweeps to leave.
  for (int sweeps = 250; sweeps <= 4000 && !s.converged; sweeps *= 2) {
    gauss_seidel(W, b, mu, upper, sweeps, s.r);
    newton(W, b, mu, upper, tolerance, max_iterations, s);
  }
  // Dependent rows (a coin's curved contact beside its rim points) can leave Newton and the sweeps
  // stalled just above the tolerance: within kStallFactor of it the answer is taken.
  s.converged = s.converged || s.residual <= kStallFactor * tolerance;
  if (s.converged) keep_in_cone(mu, upper, s.r);
  return s;
}

}  // namespace impactsim
