#include "core/velocity_step.hpp"

#include <Eigen/Cholesky>

#include "numerics/short_number.hpp"
#include "numerics/solve_columns.hpp"
#include "numerics/coulomb_lcp.hpp"
#include "numerics/friction_cone.hpp"
#include "numerics/mass_factor.hpp"

namespace impactsim {

VelocityStep solve_velocity_step(const ContactSpace& c, const Eigen::MatrixXd& nu, const Eigen::VectorXd& b,
                                 const LcpOptions& options) {
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
    const CoulombLcp lcp = build_coulomb_lcp_in_contact_space(W, J * Pb, layout);
    const LcpSolution s = solve_lemke(lcp.W, lcp.w, options);
    out.lcp_variables = static_cast<int>(lcp.w.size());
    out.residual = s.residual;
    if (!s.ok()) {
      out.ok = false;
      out.diagnostic = "LCP with " + std::to_string(out.lcp_variables) + " variables: " + describe(s.status) +
                       " (residual " + short_number(s.residual) + ")";
    }
    f = coulomb_forces(layout, s.z);
  }
  out.y = Pb + PJT * f;
  out.c_n = f.head(m);
  out.c_t = Eigen::VectorXd::Zero(m * td);
  for (int b = 0; b < layout.blocks(); ++b) out.c_t.segment(layout.owner[b] * td, td) = f.segment(m + b * td, td);
  if (nu.rows() > 0) out.c_nu = -S_llt.solve(nu * M_llt.solve(b + J.transpose() * f));
  return out;
}

}  // namespace impactsim
