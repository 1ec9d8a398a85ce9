#include "numerics/coulomb_cone.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

namespace impactsim {
namespace {

double cap_of(const Eigen::VectorXd& upper, Eigen::Index i) {
  return upper.size() ? upper[i] : std::numeric_limits<double>::infinity();
}

// From kSparseFrom rows on W may be sparse (Blocks); from kDenseLuFrom rows on Newton's step is by
// LU (see newton()).
constexpr Eigen::Index kSparseFrom = 96;
constexpr Eigen::Index kDenseLuFrom = 24;

// W = J M^-1 J^T couples only contacts that share a moving body, so a pile's W, and Newton's G
// with it, is sparse: 8% of their entries in a 50-box pile's islands of 50 to 120 contacts. Where
// W has kSparseFrom rows or more and fewer than kSparseBelow of its 3 x 3 blocks hold an entry, the
// solver works block by block: W r, G's assembly and Gauss-Seidel's rows over the blocks that
// hold one, and Newton's step by a sparse LU. On those islands a sparse LU of G (COLAMD's order;
// its factors hold 1.4 times G's entries) took 0.28 ms against the dense LU's 0.77 ms, and then
// building the dense G (3m x 3m, row by row) took a fifth of the pile's run.
constexpr double kSparseBelow = 0.25;

// The contacts j whose block W_ij holds an entry (i among them), per contact i; empty: W is
// treated as dense.
struct Blocks {
  std::vector<std::vector<int>> of;
  bool sparse() const { return !of.empty(); }
};

Blocks sparse_blocks(const Eigen::MatrixXd& W) {
  Blocks out;
  const Eigen::Index m = W.rows() / 3;
  if (W.rows() < kSparseFrom) return out;
  out.of.resize(static_cast<size_t>(m));
  double held = 0;
  for (Eigen::Index i = 0; i < m; ++i)
    for (Eigen::Index j = 0; j < m; ++j)
      if (i == j || (W.block<3, 3>(3 * i, 3 * j).array() != 0.0).any()) {
        out.of[static_cast<size_t>(i)].push_back(static_cast<int>(j));
        ++held;
      }
  if (held >= kSparseBelow * static_cast<double>(m * m)) out.of.clear();
  return out;
}

// W r + b.
Eigen::VectorXd velocities(const Eigen::MatrixXd& W, const Blocks& blocks, const Eigen::VectorXd& b,
                           const Eigen::VectorXd& r) {
  if (!blocks.sparse()) return W * r + b;
  Eigen::VectorXd u = b;
  for (size_t i = 0; i < blocks.of.size(); ++i) {
    const Eigen::Index n = 3 * static_cast<Eigen::Index>(i);
    for (int j : blocks.of[i]) u.segment<3>(n).noalias() += W.block<3, 3>(n, 3 * j) * r.segment<3>(3 * j);
  }
  return u;
}

// One contact's share of Phi at (r_i, u_i), and what its rows of G are made of.
struct ContactTerms {
  double rho = 1.0;
  bool pressed = false;            // where the clamp passes xi on
  Eigen::Matrix2d dproj_dy = Eigen::Matrix2d::Zero();
  Eigen::Vector2d dproj_dR = Eigen::Vector2d::Zero();
};

ContactTerms contact_terms(double W_nn, double mu, double cap, const Eigen::Ref<const Eigen::Vector3d>& r,
                           const Eigen::Ref<const Eigen::Vector3d>& u, Eigen::Ref<Eigen::Vector3d> phi) {
  ContactTerms c;
  c.rho = W_nn > 0 ? 1.0 / W_nn : 1.0;
  const double xi = r[0] - c.rho * u[0];
  const double held = std::clamp(xi, 0.0, cap);
  c.pressed = xi > 0 && xi < cap;
  phi[0] = r[0] - held;
  const double R = mu * held;
  const Eigen::Vector2d y = r.tail<2>() - c.rho * u.tail<2>();
  const double ny = y.norm();
  const bool inside = R > 0 && ny <= R;
  const Eigen::Vector2d proj = inside ? y : (ny > 0 ? Eigen::Vector2d(R * y / ny) : Eigen::Vector2d::Zero());
  phi.tail<2>() = r.tail<2>() - proj;
  if (inside) {
    c.dproj_dy.setIdentity();
  } else if (ny > 0) {
    const Eigen::Vector2d yhat = y / ny;
    c.dproj_dy = R / ny * (Eigen::Matrix2d::Identity() - yhat * yhat.transpose());
    c.dproj_dR = yhat;
  }
  return c;
}

// Phi at r, and where terms is given each contact's terms of G (one element of Clarke's
// generalized Jacobian).
Eigen::VectorXd alart_curnier(const Eigen::MatrixXd& W, const Blocks& blocks, const Eigen::VectorXd& b,
                              const Eigen::VectorXd& mu, const Eigen::VectorXd& upper, const Eigen::VectorXd& r,
                              std::vector<ContactTerms>* terms) {
  const Eigen::Index m = mu.size();
  const Eigen::VectorXd u = velocities(W, blocks, b, r);
  Eigen::VectorXd phi(3 * m);
  if (terms) terms->resize(static_cast<size_t>(m));
  for (Eigen::Index i = 0; i < m; ++i) {
    const Eigen::Index n = 3 * i;
    const ContactTerms c = contact_terms(W(n, n), mu[i], cap_of(upper, i), r.segment<3>(n), u.segment<3>(n), phi.segment<3>(n));
    if (terms) (*terms)[static_cast<size_t>(i)] = c;
  }
  return phi;
}

Eigen::VectorXd alart_curnier(const Eigen::MatrixXd& W, const Eigen::VectorXd& b, const Eigen::VectorXd& mu,
                              const Eigen::VectorXd& upper, const Eigen::VectorXd& r) {
  return alart_curnier(W, Blocks{}, b, mu, upper, r, nullptr);
}

// G, dense: with xi = r_n - rho u_n and y = r_t - rho u_t, d xi / d r = e_n - rho W_n and
// d y / d r = E_t - rho W_t.
void dense_jacobian(const Eigen::MatrixXd& W, const Eigen::VectorXd& mu, const std::vector<ContactTerms>& terms,
                    Eigen::MatrixXd& G) {
  const Eigen::Index m = mu.size();
  G.setIdentity(3 * m, 3 * m);
  for (Eigen::Index i = 0; i < m; ++i) {
    const Eigen::Index n = 3 * i;
    const ContactTerms& c = terms[static_cast<size_t>(i)];
    Eigen::RowVectorXd dxi = -c.rho * W.row(n);
    dxi[n] += 1.0;
    if (c.pressed) G.row(n) -= dxi;
    Eigen::MatrixXd dy = -c.rho * W.middleRows(n + 1, 2);
    dy(0, n + 1) += 1.0;
    dy(1, n + 2) += 1.0;
    G.middleRows(n + 1, 2).noalias() -= c.dproj_dy.lazyProduct(dy);  // 2 x 2 times 2 x 3m: no GEMM packing per contact
    if (c.pressed) G.middleRows(n + 1, 2) -= mu[i] * c.dproj_dR * dxi;
  }
}

// The entries of G + delta I, block by block, handed to put(row, column, value) in one fixed order:
// every block of `blocks`, zeros too, so that G's pattern is the same at every iteration.
template <class Put>
void sparse_jacobian(const Eigen::MatrixXd& W, const Blocks& blocks, const Eigen::VectorXd& mu,
                     const std::vector<ContactTerms>& terms, double delta, Put&& put) {
  for (size_t i = 0; i < blocks.of.size(); ++i) {
    const Eigen::Index n = 3 * static_cast<Eigen::Index>(i);
    const ContactTerms& c = terms[i];
    for (int j : blocks.of[i]) {
      const Eigen::Matrix3d W_ij = W.block<3, 3>(n, 3 * j);
      const Eigen::Matrix3d E = (static_cast<int>(i) == j ? 1.0 : 0.0) * Eigen::Matrix3d::Identity();
      const Eigen::RowVector3d dxi = E.row(0) - c.rho * W_ij.row(0);
      const Eigen::Matrix<double, 2, 3> dy = E.bottomRows<2>() - c.rho * W_ij.bottomRows<2>();
      Eigen::Matrix3d G_ij = E + delta * E;
      if (c.pressed) G_ij.row(0) -= dxi;
      G_ij.bottomRows<2>() -= c.dproj_dy * dy;
      if (c.pressed) G_ij.bottomRows<2>() -= mu[static_cast<Eigen::Index>(i)] * c.dproj_dR * dxi;
      for (int a = 0; a < 3; ++a)
        for (int k = 0; k < 3; ++k) put(n + a, 3 * j + k, G_ij(a, k));
    }
  }
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
  return r.size() ? alart_curnier(W, b, mu, upper, r).cwiseAbs().maxCoeff() : 0.0;
}

namespace {

void zero_frictionless(const Eigen::VectorXd& mu, Eigen::VectorXd& r) {
  for (Eigen::Index i = 0; i < mu.size(); ++i)
    if (mu[i] == 0) r.segment<2>(3 * i + 1).setZero();
}

// Armijo on |Phi|^2 / 2 along `step` from r: the step length t taken (a semismooth Newton step
// is taken whole near the answer), or 0 where no length descends.
double line_search(const Eigen::MatrixXd& W, const Blocks& blocks, const Eigen::VectorXd& b, const Eigen::VectorXd& mu,
                   const Eigen::VectorXd& upper, const Eigen::VectorXd& r, const Eigen::VectorXd& phi,
                   const Eigen::VectorXd& step) {
  if (!step.allFinite()) return 0.0;
  const double merit = 0.5 * phi.squaredNorm();
  double t = 1.0;
  Eigen::VectorXd trial_phi;
  for (int j = 0; j < 40; ++j, t *= 0.5) {
    trial_phi = alart_curnier(W, blocks, b, mu, upper, r + t * step, nullptr);
    if (0.5 * trial_phi.squaredNorm() <= (1.0 - 1e-4 * t) * merit) return t;
  }
  return 0.5 * trial_phi.squaredNorm() < merit ? t : 0.0;  // (the last length halved once more)
}

// The Levenberg-Marquardt shift of Newton's LU steps (see newton()).
constexpr double kShift = 1e-9;

// The step by sparse LU of G + kShift I (NaN where the factorization fails: no descent). G's
// pattern is that of `blocks`, the same in every Newton run of one solve: it is built, and
// COLAMD's order found, at the first step; later steps write their values into it in place
// (rebuilding G from triplets took a sixth of a 50-box pile's Painleve steps).
class SparseLuStep {
 public:
  Eigen::VectorXd step(const Eigen::MatrixXd& W, const Blocks& blocks, const Eigen::VectorXd& mu,
                       const std::vector<ContactTerms>& terms, const Eigen::VectorXd& phi) {
    if (slot_.empty()) {
      build(W, blocks, mu, terms);
    } else {
      double* value = G_.valuePtr();
      size_t e = 0;
      sparse_jacobian(W, blocks, mu, terms, kShift, [&](Eigen::Index, Eigen::Index, double x) { value[slot_[e++]] = x; });
    }
    lu_.factorize(G_);
    if (lu_.info() != Eigen::Success) return Eigen::VectorXd::Constant(phi.size(), NAN);
    return lu_.solve(-phi);
  }

 private:
  // G from triplets, and where each of sparse_jacobian's entries, in its order, lies in G's values.
  void build(const Eigen::MatrixXd& W, const Blocks& blocks, const Eigen::VectorXd& mu,
             const std::vector<ContactTerms>& terms) {
    std::vector<Eigen::Triplet<double>> entries;
    sparse_jacobian(W, blocks, mu, terms, kShift,
                    [&](Eigen::Index r, Eigen::Index c, double x) { entries.emplace_back(r, c, x); });
    G_.resize(W.rows(), W.cols());
    G_.setFromTriplets(entries.begin(), entries.end());
    slot_.reserve(entries.size());
    for (const Eigen::Triplet<double>& t : entries) {
      const int* begin = G_.innerIndexPtr() + G_.outerIndexPtr()[t.col()];
      const int* end = G_.innerIndexPtr() + G_.outerIndexPtr()[t.col() + 1];
      slot_.push_back(static_cast<Eigen::Index>(std::lower_bound(begin, end, t.row()) - G_.innerIndexPtr()));
    }
    lu_.analyzePattern(G_);
  }

  Eigen::SparseMatrix<double> G_;  // column-major, compressed
  std::vector<Eigen::Index> slot_;
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu_;
};

// Damped semismooth Newton from s.r until the residual is within tolerance, the step gives no
// descent, or max_iterations. Dependent contact rows make G singular where they press: the
// least-norm step, by a complete orthogonal decomposition. From kDenseLuFrom rows on, the step of
// G + delta I (delta = 1e-9 against G's O(1) entries: a Levenberg-Marquardt step, which tends to a
// solution of G x = -Phi as delta -> 0 where one exists) by LU is tried first, and the least-norm
// step only where it gives no descent: a blocked LU costs a quarter of the column-pivoting QR on
// 360 rows (a 50-box pile's island of 120 contacts, whose steps spent 74% of their time there),
// and the QR on 63 to 72 rows was a sixth of a frictional 10-sphere pile's run.
// A sparse W's G is factored by a sparse LU (Blocks, SparseLuStep).
// The equations and their tolerance are unchanged; only the path to them is.
// A run whose residual has not fallen by kStallDrop over kStallSpan iterations has stalled at a
// kink of the merit (its line searches accept steps of 1e-6 to 1e-12 and move nothing): it stops
// there, for the sweeps, instead of at the line search that finds no descent at all, 15 to 20
// iterations later, each a decomposition (tests/numerics/data/sphere_pile_step_cone.txt: 17
// iterations instead of 103).
constexpr int kStallSpan = 4;
constexpr double kStallDrop = 0.9;
void newton(const Eigen::MatrixXd& W, const Blocks& blocks, const Eigen::VectorXd& b, const Eigen::VectorXd& mu,
            const Eigen::VectorXd& upper, double tolerance, int max_iterations, SparseLuStep& lu, ConeSolution& s) {
  std::vector<ContactTerms> terms;
  Eigen::MatrixXd G;
  Eigen::VectorXd phi = alart_curnier(W, blocks, b, mu, upper, s.r, &terms);
  std::array<double, kStallSpan> recent;  // the residuals of the last kStallSpan iterations
  for (int k = 0;; ++k, ++s.iterations) {
    s.residual = phi.cwiseAbs().maxCoeff();
    s.converged = s.residual <= tolerance;
    if (s.converged || k == max_iterations) return;
    double& then = recent[static_cast<size_t>(k % kStallSpan)];
    if (k >= kStallSpan && s.residual > kStallDrop * then) {
      ++s.stalled_runs;
      return;
    }
    then = s.residual;
    Eigen::VectorXd step;
    double t = 0.0;
    if (blocks.sparse()) {
      step = lu.step(W, blocks, mu, terms, phi);
      ++s.sparse_lu_steps;
      t = line_search(W, blocks, b, mu, upper, s.r, phi, step);
    } else {
      dense_jacobian(W, mu, terms, G);
      if (G.rows() >= kDenseLuFrom) {
        const Eigen::PartialPivLU<Eigen::MatrixXd> dense(G + kShift * Eigen::MatrixXd::Identity(G.rows(), G.cols()));
        step = dense.solve(-phi);
        t = line_search(W, blocks, b, mu, upper, s.r, phi, step);
      }
    }
    if (t == 0.0) {
      if (blocks.sparse()) dense_jacobian(W, mu, terms, G);
      step = G.completeOrthogonalDecomposition().solve(-phi);
      t = line_search(W, blocks, b, mu, upper, s.r, phi, step);
      ++s.least_norm_steps;
    }
    if (t == 0.0) return;  // no descent left
    s.r += t * step;
    zero_frictionless(mu, s.r);
    phi = alart_curnier(W, blocks, b, mu, upper, s.r, &terms);
  }
}

// Rows k .. k + K - 1 of a sparse W (contact i's) times r, over the blocks that hold entries.
template <int K>
Eigen::Matrix<double, K, 1> block_rows_times(const Eigen::MatrixXd& W, const Blocks& blocks, Eigen::Index k,
                                             Eigen::Index i, const Eigen::VectorXd& r) {
  Eigen::Matrix<double, K, 1> out = Eigen::Matrix<double, K, 1>::Zero();
  for (int j : blocks.of[static_cast<size_t>(i)]) out.noalias() += W.block<K, 3>(k, 3 * j) * r.segment<3>(3 * j);
  return out;
}

// Projected Gauss-Seidel (Jean and Moreau's nonsmooth contact dynamics): contact by contact, the
// normal impulse projected on [0, upper], then the friction on its disc, each with the latest
// impulses of the others. Slow but steady where Newton's merit has a false minimum.
void gauss_seidel(const Eigen::MatrixXd& W, const Blocks& blocks, const Eigen::VectorXd& b, const Eigen::VectorXd& mu,
                  const Eigen::VectorXd& upper, int sweeps, Eigen::VectorXd& r) {
  const Eigen::Index m = mu.size();
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (Eigen::Index i = 0; i < m; ++i) {
      const Eigen::Index n = 3 * i;
      if (W(n, n) <= 0) continue;
      const double Wr_n = blocks.sparse() ? block_rows_times<1>(W, blocks, n, i, r)[0] : W.row(n).dot(r);
      r[n] = std::clamp(r[n] - (Wr_n + b[n]) / W(n, n), 0.0, cap_of(upper, i));
      const double Wt = std::max(W(n + 1, n + 1), W(n + 2, n + 2));
      if (mu[i] == 0 || Wt <= 0) continue;
      const Eigen::Vector2d u = blocks.sparse() ? Eigen::Vector2d(block_rows_times<2>(W, blocks, n + 1, i, r) + b.segment<2>(n + 1))
                                                : Eigen::Vector2d(W.middleRows<2>(n + 1) * r + b.segment<2>(n + 1));
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
                                const Eigen::VectorXd& upper, int stall_round) {
  ConeSolution s;
  s.r = start;
  zero_frictionless(mu, s.r);
  if (start.size() == 0) {
    s.converged = true;
    return s;
  }
  const Blocks blocks = sparse_blocks(W);
  SparseLuStep lu;
  newton(W, blocks, b, mu, upper, tolerance, max_iterations, lu, s);
  // Each round sweeps twice as long: a false minimum's basin can need thousands of sweeps to leave.
  // A round that leaves the residual within kNearFactor of the tolerance, less than halved, ends
  // them: the longer rounds after it ended where it did (that step stalled at 6 tolerances through
  // all 7,750 sweeps; now 750).
  for (int sweeps = kFirstSweepRound; sweeps <= kMaxSweepRound && !s.converged; sweeps *= 2) {
    const double before = s.residual;
    gauss_seidel(W, blocks, b, mu, upper, sweeps, s.r);
    s.sweeps += sweeps;
    newton(W, blocks, b, mu, upper, tolerance, max_iterations, lu, s);
    if (s.residual <= kNearFactor * tolerance && s.residual > 0.5 * before) break;
    if (sweeps >= stall_round && s.residual <= kStallFactor * tolerance) break;
  }
  // Dependent rows (a coin's curved contact beside its rim points) can leave Newton and the sweeps
  // stalled just above the tolerance: within kStallFactor of it the answer is taken.
  s.converged = s.converged || s.residual <= kStallFactor * tolerance;
  if (s.converged) keep_in_cone(mu, upper, s.r);
  return s;
}

}  // namespace impactsim
