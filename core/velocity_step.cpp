#include "core/velocity_step.hpp"

#include <algorithm>

#include <Eigen/Cholesky>

#include "impact/circular_cone.hpp"
#include "numerics/coulomb_cone.hpp"
#include "numerics/short_number.hpp"
#include "numerics/solve_columns.hpp"
#include "numerics/coulomb_lcp.hpp"
#include "numerics/friction_cone.hpp"
#include "numerics/lcp_support.hpp"
#include "numerics/mass_factor.hpp"

namespace impactsim {
namespace {

// The polygon's forces f over rows J (normals, then the frictional blocks' tangents) as the cone's
// impulses, three per contact (normal, tangent, tangent).
Eigen::VectorXd cone_impulses(const ContactSpace& c, const CoulombLayout& layout, const Eigen::VectorXd& f) {
  const int m = c.contacts();
  Eigen::VectorXd r = Eigen::VectorXd::Zero(3 * m);
  for (int i = 0; i < m; ++i) r[3 * i] = f[i];
  for (int b = 0; b < layout.blocks(); ++b) r.segment<2>(3 * layout.owner[b] + 1) = f.segment<2>(m + 2 * b);
  return r;
}

// The step in the circular cone (impact/circular_cone.hpp) from the impulses r (fill_normal_start
// where a contact has none): the problem over three rows per contact, u = J3 y with
// y = Pb + P J3^T r. P applies M^-1 and projects the joints out; delassus(J3, W3, PJ3T) sets
// PJ3T = P J3^T and W3 = J3 P J3^T. Sets out's y and impulses (ok false where Newton does not
// converge), and J3T_r = J3^T r for the joint impulses; returns the cone's residual [N s].
template <class Delassus>
double circular_step(const ContactSpace& c, Eigen::VectorXd r, const Eigen::VectorXd& Pb, Delassus delassus,
                   VelocityStep& out, Eigen::VectorXd& J3T_r, const Eigen::VectorXd& room,
                   double tolerance = kConeTolerance, int stall_round = kMaxSweepRound) {
  const int m = c.contacts();
  const Eigen::MatrixXd J3 = cone_rows(c);
  Eigen::MatrixXd PJ3T, W3;
  delassus(J3, W3, PJ3T);
  Eigen::VectorXd u0 = J3 * Pb;
  for (Eigen::Index i = 0; i < room.size(); ++i) u0[3 * i] += room[i];
  fill_normal_start(W3, u0, r);
  const ConeSolution s =
      solve_coulomb_cone(W3, u0, c.mu, r, tolerance * impulse_scale(W3, u0, r), 100, {}, stall_round);
  if (!s.converged) {
    out.ok = false;
    out.diagnostic = cone_failure(s.residual);
  }
  out.y = Pb + PJ3T * s.r;
  out.c_n = Eigen::VectorXd(s.r(Eigen::seq(0, 3 * m - 1, 3)));
  out.c_t.resize(2 * m);
  for (int i = 0; i < m; ++i) out.c_t.segment<2>(2 * i) = s.r.segment<2>(3 * i + 1);
  J3T_r = J3.transpose() * s.r;
  return s.residual;
}

// The step's LCP; psd: W is symmetric positive semi-definite and the model large, so a guessed
// support is tried first (see solve_velocity_step).
LcpSolution solve_step_lcp(const CoulombLcp& lcp, bool psd, const std::vector<int>* pressed, const LcpOptions& options) {
  if (psd) {
    std::vector<int> guess;
    if (pressed) {
      guess = *pressed;
    } else {
      for (Eigen::Index i = 0; i < lcp.w.size(); ++i)
        if (lcp.w[i] < 0) guess.push_back(static_cast<int>(i));
    }
    return solve_psd_lcp(lcp.W, lcp.w, std::move(guess), options);
  }
  return solve_lemke(lcp.W, lcp.w, options);
}

// A step's answer within kStallFactor of its tolerance after the first round of the cone's
// sweeps is taken (see solve_velocity_step_in_cone).
constexpr int kStepStallRound = kFirstSweepRound;

}  // namespace

VelocityStep solve_velocity_step(const ContactSpace& c, const Eigen::MatrixXd& nu, const Eigen::VectorXd& b,
                                 const LcpOptions& options, const std::vector<int>* pressed,
                                 const Eigen::VectorXd& room) {
  VelocityStep out;
  const int m = c.contacts(), td = c.tangent_dim, nv = static_cast<int>(b.size());
  const MassFactor M_llt = mass_factor(c);
  if (M_llt.info() != Eigen::Success) {
    out.ok = false;
    out.diagnostic = "the mass matrix is not positive definite";
    return out;
  }
  // Frictionless contacts carry no friction block and no tangent rows (frictional_contacts_only):
  // a row of frictionless balls has a step LCP of one variable per contact, not k + 2.
  const CoulombLayout layout = frictional_contacts_only(c.mu, friction_polygon(td, c.friction_directions));
  const int ft = layout.blocks() * td;
  Eigen::MatrixXd J(m + ft, nv);
  J << c.J_n, block_tangent_rows(layout, c.J_t);
  // P b and P J^T: M^-1 applied, then the joint directions projected out. W = J P J^T.
  Eigen::VectorXd Pb = M_llt.solve(b);
  Eigen::MatrixXd PJT, W;
  Eigen::MatrixXd Minv_nuT;
  Eigen::LLT<Eigen::MatrixXd> S_llt;
  // Block by block: a contact's rows touch its two bodies' blocks, so a row of 100 balls costs
  // O(contacts), not the dense 2 x 201^2 x 606 multiply-adds per step. Joints (nu) couple the
  // blocks through P, so with them W stays one dense product.
  const bool blockwise = nu.rows() == 0 && M_llt.rows() >= kBlockwiseFrom;
  if (blockwise) {
    block_delassus(M_llt, J, J, W, &PJT);
  } else {
    PJT = solve_columns(M_llt, J.transpose());
  }
  if (nu.rows() > 0) {
    Minv_nuT = M_llt.solve(nu.transpose());
    S_llt.compute(nu * Minv_nuT);
    if (S_llt.info() != Eigen::Success) {
      out.ok = false;
      out.diagnostic = "the joint constraints are dependent (nu M^-1 nu^T is singular)";
      return out;
    }
    Pb -= Minv_nuT * S_llt.solve(nu * Pb);
    PJT -= Minv_nuT * solve_columns(S_llt, nu * PJT);
  }
  Eigen::VectorXd f = Eigen::VectorXd::Zero(m + ft);
  if (m > 0) {
    if (!blockwise) W.noalias() = J * PJT;
    Eigen::VectorXd u0 = J * Pb;
    if (room.size() > 0) u0.head(m) += room;
    const CoulombLcp lcp = build_coulomb_lcp_in_contact_space(W, u0, layout);
    const LcpSolution s = solve_step_lcp(lcp, blockwise && layout.blocks() == 0, pressed, options);
    out.lcp_variables = static_cast<int>(lcp.w.size());
    out.lcp_method = s.method;
    out.residual = s.residual;
    if (!s.ok()) {
      out.ok = false;
      out.diagnostic = "LCP with " + std::to_string(out.lcp_variables) + " variables: " + describe(s.status) +
                       " (residual " + short_number(s.residual) + ")";
    }
    f = coulomb_forces(layout, s.z);
  }
  if (out.ok && m > 0 && uses_circular_cone(c)) {
    // P X = M^-1 X with the joint directions projected out, as for PJT above.
    auto delassus = [&](const Eigen::MatrixXd& J3, Eigen::MatrixXd& W3, Eigen::MatrixXd& PJ3T) {
      PJ3T = solve_columns(M_llt, Eigen::MatrixXd(J3.transpose()));
      if (nu.rows() > 0) PJ3T -= Minv_nuT * solve_columns(S_llt, nu * PJ3T);
      W3.noalias() = J3 * PJ3T;
    };
    Eigen::VectorXd J3T_r;
    circular_step(c, cone_impulses(c, layout, f), Pb, delassus, out, J3T_r, room);
    if (nu.rows() > 0) out.c_nu = -S_llt.solve(nu * M_llt.solve(b + J3T_r));
    return out;
  }
  out.y = Pb + PJT * f;
  out.c_n = f.head(m);
  out.c_t = Eigen::VectorXd::Zero(m * td);
  for (int b = 0; b < layout.blocks(); ++b) out.c_t.segment(layout.owner[b] * td, td) = f.segment(m + b * td, td);
  if (nu.rows() > 0) out.c_nu = -S_llt.solve(nu * M_llt.solve(b + J.transpose() * f));
  return out;
}

VelocityStep solve_velocity_step_in_cone(const ContactSpace& c, const Eigen::VectorXd& b, double tolerance,
                                         const Eigen::VectorXd& start, const Eigen::VectorXd& room) {
  VelocityStep out;
  const MassFactor M_llt = mass_factor(c);
  if (M_llt.info() != Eigen::Success) {
    out.ok = false;
    out.diagnostic = "the mass matrix is not positive definite";
    return out;
  }
  const Eigen::VectorXd Pb = M_llt.solve(b);
  if (c.contacts() == 0) {
    out.y = Pb;
    return out;
  }
  Eigen::VectorXd J3T_r;
  // Block by block in a large model, as solve_velocity_step: a 50-box pile's island of 120
  // contacts had its 360 x 360 W3 as one dense product, a fifth of its steps' time.
  const auto delassus = [&](const Eigen::MatrixXd& J3, Eigen::MatrixXd& W3, Eigen::MatrixXd& PJ3T) {
    if (M_llt.rows() >= kBlockwiseFrom) return block_delassus(M_llt, J3, J3, W3, &PJ3T);
    PJ3T = solve_columns(M_llt, Eigen::MatrixXd(J3.transpose()));
    W3.noalias() = J3 * PJ3T;
  };
  out.residual = circular_step(c, start, Pb, delassus, out, J3T_r, room, tolerance, kStepStallRound);
  return out;
}

}  // namespace impactsim
