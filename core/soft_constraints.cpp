#include "core/soft_constraints.hpp"

#include <cmath>
#include <numbers>

#include <Eigen/Cholesky>

#include "numerics/solve_columns.hpp"
#include "numerics/conic_qp.hpp"
#include "numerics/coulomb_lcp.hpp"
#include "numerics/friction_cone.hpp"
#include "numerics/lcp.hpp"

namespace impactsim {
namespace {

// H and g over the non-bilateral rows `x` after eliminating the bilateral ones (their e = 0).
struct Reduced {
  Eigen::MatrixXd H;
  Eigen::VectorXd g;
  Eigen::MatrixXd Hbx;
  Eigen::VectorXd gb;
  Eigen::LLT<Eigen::MatrixXd> Hbb;
};

Eigen::MatrixXd rows_cols(const Eigen::MatrixXd& A, const std::vector<int>& r, const std::vector<int>& c) {
  Eigen::MatrixXd out(r.size(), c.size());
  for (size_t i = 0; i < r.size(); ++i)
    for (size_t j = 0; j < c.size(); ++j) out(i, j) = A(r[i], c[j]);
  return out;
}

Eigen::VectorXd entries(const Eigen::VectorXd& v, const std::vector<int>& r) {
  Eigen::VectorXd out(r.size());
  for (size_t i = 0; i < r.size(); ++i) out(i) = v(r[i]);
  return out;
}

Reduced reduce(const Eigen::MatrixXd& H, const Eigen::VectorXd& g, const std::vector<int>& b, const std::vector<int>& x) {
  Reduced red;
  red.H = rows_cols(H, x, x);
  red.g = entries(g, x);
  if (b.empty()) return red;
  red.Hbb.compute(rows_cols(H, b, b));
  red.Hbx = rows_cols(H, b, x);
  red.gb = entries(g, b);
  red.H -= red.Hbx.transpose() * solve_columns(red.Hbb, red.Hbx);
  red.g -= red.Hbx.transpose() * red.Hbb.solve(red.gb);
  return red;
}

// Contact-space layout of the non-bilateral rows: x lists them (each contact's normal, then its
// tangents); pos_n[i] and pos_t[i] index into x (-1 without friction).
struct Layout {
  std::vector<int> x, pos_n, pos_t;
};

Layout layout(const SoftConstraintProblem& p) {
  Layout l;
  for (const SoftContactRows& c : p.contacts) {
    l.pos_n.push_back(static_cast<int>(l.x.size()));
    l.x.push_back(c.normal);
    l.pos_t.push_back(c.tangent < 0 ? -1 : static_cast<int>(l.x.size()));
    if (c.tangent >= 0)
      for (int k = 0; k < p.tangent_dim; ++k) l.x.push_back(c.tangent + k);
  }
  return l;
}

Eigen::VectorXd solve_lcp(const SoftConstraintProblem& p, const Layout& l, const Reduced& red,
                          const SoftSolverOptions& o, SoftSolution& out) {
  const int m = static_cast<int>(p.contacts.size()), td = p.tangent_dim;
  // Contact-space operator over [n (m); t (m td)]; a contact without tangent rows gets identity
  // ones (dropped below with its friction block, as mu = 0).
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(m + m * td, l.x.size());  // maps x to contact space
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(m + m * td, m + m * td);
  Eigen::VectorXd mu(m);
  for (int i = 0; i < m; ++i) {
    T(i, l.pos_n[i]) = 1;
    mu(i) = p.contacts[i].tangent < 0 ? 0.0 : p.contacts[i].mu;
    for (int k = 0; k < td; ++k) {
      if (l.pos_t[i] >= 0) T(m + i * td + k, l.pos_t[i] + k) = 1;
      else A(m + i * td + k, m + i * td + k) = 1;
    }
  }
  A += T * red.H * T.transpose();
  // Frictionless contacts get no friction block (frictional_contacts_only): the LCP is posed over
  // the normal rows and the tangent rows of the frictional contacts only (a row of frictionless
  // balls has one variable per contact, not k + 2).
  const CoulombLayout layout = frictional_contacts_only(mu, friction_polygon(td, o.friction_directions));
  std::vector<int> rows(m);
  for (int i = 0; i < m; ++i) rows[i] = i;
  for (int b = 0; b < layout.blocks(); ++b)
    for (int k = 0; k < td; ++k) rows.push_back(m + layout.owner[b] * td + k);
  const Eigen::VectorXd u0 = T * red.g;
  const CoulombLcp lcp = build_coulomb_lcp_in_contact_space(A(rows, rows), u0(rows), layout);
  const LcpSolution s = solve_lemke(lcp.W, lcp.w);
  out.residual = s.residual;
  out.iterations = s.pivots;
  if (!s.ok()) {
    out.ok = false;
    out.diagnostic = "LCP with " + std::to_string(lcp.w.size()) + " variables: " + describe(s.status);
  }
  Eigen::VectorXd f = Eigen::VectorXd::Zero(m + m * td);
  f(rows) = coulomb_forces(layout, s.z);
  return T.transpose() * f;
}

Eigen::VectorXd solve_min_norm(const SoftConstraintProblem& p, const Layout& l, const Reduced& red,
                               const SoftSolverOptions& o, SoftSolution& out) {
  const int m = static_cast<int>(p.contacts.size()), td = p.tangent_dim, n = static_cast<int>(l.x.size());
  ConicQp qp;
  qp.P = Eigen::MatrixXd::Zero(n, n);
  qp.c = Eigen::VectorXd::Zero(n);
  std::vector<Eigen::VectorXd> rows;
  std::vector<double> rhs;
  auto add_row = [&](Eigen::VectorXd a, double b) {
    rows.push_back(std::move(a));
    rhs.push_back(b);
  };
  std::vector<int> normals;
  for (int i = 0; i < m; ++i) {
    const int pn = l.pos_n[i];
    normals.push_back(pn);
    qp.P(pn, pn) = o.zeta;
    add_row(red.H.row(pn).transpose(), -red.g(pn));  // e_n >= 0
    add_row(Eigen::VectorXd::Unit(n, pn), 0.0);      // lambda_n >= 0
    const int pt = l.pos_t[i];
    if (pt < 0) continue;
    const double mu = p.contacts[i].mu, W_t = p.W(p.contacts[i].tangent);
    for (int k = 0; k < td; ++k) {
      // 1/2 lambda_t^2 + 1/2 e_t^2, e_t = W_t (H_t x + g_t).
      qp.P(pt + k, pt + k) += 1.0;
      const Eigen::VectorXd R = W_t * red.H.row(pt + k).transpose();
      qp.P += R * R.transpose();
      qp.c += R * (W_t * red.g(pt + k));
    }
    if (td == 1) {
      add_row(mu * Eigen::VectorXd::Unit(n, pn) - Eigen::VectorXd::Unit(n, pt), 0.0);
      add_row(mu * Eigen::VectorXd::Unit(n, pn) + Eigen::VectorXd::Unit(n, pt), 0.0);
    } else if (o.cone == FrictionConeKind::circular) {
      qp.cones.push_back({pn, mu, {pt, pt + 1}});
    } else {  // the facets of the polygon inscribed in the circle of radius mu lambda_n
      const int k = o.friction_directions;
      for (int j = 0; j < k; ++j) {
        const double a = (2 * j + 1) * std::numbers::pi / k;
        Eigen::VectorXd row = mu * std::cos(std::numbers::pi / k) * Eigen::VectorXd::Unit(n, pn);
        row(pt) -= std::cos(a);
        row(pt + 1) -= std::sin(a);
        add_row(row, 0.0);
      }
    }
  }
  qp.A.resize(rows.size(), n);
  qp.b.resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    qp.A.row(i) = rows[i].transpose();
    qp.b(i) = rhs[i];
  }
  // Strictly feasible start: no friction, and lambda_n > 0 with H_nn lambda_n + g_n > 0. H_nn is
  // positive definite, so LCP(H_nn, g_n - 1) has a solution z >= 0 with H_nn z + g_n >= 1; a small
  // positive shift keeps both margins.
  const Eigen::MatrixXd Hnn = rows_cols(red.H, normals, normals);
  const LcpSolution z = solve_lemke(Hnn, entries(red.g, normals) - Eigen::VectorXd::Ones(m));
  const double shift = 0.5 / std::max(1e-300, Hnn.cwiseAbs().rowwise().sum().maxCoeff());
  Eigen::VectorXd x0 = Eigen::VectorXd::Zero(n);
  for (int i = 0; i < m; ++i) x0(normals[i]) = z.z(i) + shift;
  // f - f* <= gap bounds the error of the forces by about sqrt(2 gap) in the directions only the
  // weights zeta and 1 hold; the scale is the normal forces' part of the objective at the start.
  const double scale = 1.0 + 0.5 * o.zeta * x0.squaredNorm();
  const ConicQpResult r = solve_conic_qp(qp, x0, 1e-14 * scale);
  out.residual = r.gap;
  out.iterations = r.newton_steps;
  if (!r.ok) {
    out.ok = false;
    out.diagnostic = "minimum-norm QP: " + r.diagnostic;
  }
  return r.x;
}

}  // namespace

SoftSolution solve_soft_constraints(const SoftConstraintProblem& p, const SoftSolverOptions& o) {
  SoftSolution out;
  const int rows = static_cast<int>(p.r.size());
  out.lambda = Eigen::VectorXd::Zero(rows);
  if (rows == 0) return out;
  Eigen::MatrixXd H = p.S;
  H.diagonal() += p.W.cwiseInverse();
  const Eigen::VectorXd g = -p.r.cwiseQuotient(p.W);
  const Layout l = layout(p);
  const Reduced red = reduce(H, g, p.bilateral, l.x);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(l.x.size());
  if (!p.contacts.empty())
    x = o.problem == SoftProblem::lcp ? solve_lcp(p, l, red, o, out) : solve_min_norm(p, l, red, o, out);
  for (size_t i = 0; i < l.x.size(); ++i) out.lambda(l.x[i]) = x(i);
  if (!p.bilateral.empty()) {
    const Eigen::VectorXd lb = -red.Hbb.solve(red.Hbx * x + red.gb);
    for (size_t i = 0; i < p.bilateral.size(); ++i) out.lambda(p.bilateral[i]) = lb(i);
  }
  return out;
}

}  // namespace impactsim
