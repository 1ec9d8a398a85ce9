#include "impact/circular_cone.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "numerics/coulomb_cone.hpp"
#include "numerics/short_number.hpp"

namespace impactsim {

bool uses_circular_cone(const ContactSpace& space) {
  return space.circular_cone && space.tangent_dim == 2 && space.contacts() > 0 && space.mu.maxCoeff() > 0;
}

Eigen::MatrixXd cone_rows(const ContactSpace& space) {
  const int m = space.contacts();
  Eigen::MatrixXd J(3 * m, space.J_n.cols());
  for (int i = 0; i < m; ++i) {
    J.row(3 * i) = space.J_n.row(i);
    J.middleRows(3 * i + 1, 2) = space.J_t.middleRows(2 * i, 2);
  }
  return J;
}

void fill_normal_start(const Eigen::MatrixXd& W, const Eigen::VectorXd& b, Eigen::VectorXd& r) {
  const Eigen::Index m = b.size() / 3;
  if (r.size() == 0) r = Eigen::VectorXd::Constant(3 * m, NAN);
  for (Eigen::Index i = 0; i < m; ++i)
    if (std::isnan(r[3 * i])) {
      r.segment<3>(3 * i).setZero();
      if (W(3 * i, 3 * i) > 0) r[3 * i] = std::max(0.0, -b[3 * i]) / W(3 * i, 3 * i);
    }
}

std::string cone_failure(double residual) {
  return "circular friction cone: Newton from the polygon's answer stopped " + short_number(residual) +
         " N s from it (friction_cone: polygon takes the polygon's answer)";
}

namespace {

// Newton in the cone from `start` (fill_normal_start where it has none), r's other fields kept.
ImpactResult cone_outcome(const ContactSpace& space, const MassFactor& M_llt, const Eigen::VectorXd& v_minus,
                          Eigen::VectorXd start, ImpactResult r, bool kinetic_energies) {
  const int m = space.contacts();
  const Eigen::MatrixXd J = cone_rows(space);
  Eigen::MatrixXd W, Minv_JT;
  block_delassus(M_llt, J, J, W, &Minv_JT);
  Eigen::VectorXd b = J * v_minus;
  for (int i = 0; i < m; ++i) b[3 * i] += space.e[i] * std::min(b[3 * i], 0.0);
  fill_normal_start(W, b, start);
  const ConeSolution s = solve_coulomb_cone(W, b, space.mu, start, kConeTolerance * impulse_scale(W, b, start));
  r.cone_residual = s.residual;
  if (!s.converged) {
    r.ok = false;
    r.v_plus = v_minus;
    r.diagnostic = cone_failure(s.residual);
    return r;
  }
  r.v_plus = v_minus + Minv_JT * s.r;
  r.impulse_n.resize(m);
  r.impulse_t.resize(2 * m);
  for (int i = 0; i < m; ++i) {
    r.impulse_n[i] = s.r[3 * i];
    r.impulse_t.segment<2>(2 * i) = s.r.segment<2>(3 * i + 1);
  }
  if (kinetic_energies) {
    r.kinetic_energy_minus = kinetic_energy(space.M, space.M_blocks, v_minus);
    r.kinetic_energy_plus = kinetic_energy(space.M, space.M_blocks, r.v_plus);
  }
  return r;
}

}  // namespace

ImpactResult solve_in_circular_cone(const ContactSpace& space, const MassFactor& M_llt, const Eigen::VectorXd& v_minus,
                                    const ImpactResult& polygon, bool kinetic_energies) {
  const int m = space.contacts();
  Eigen::VectorXd start(3 * m);
  for (int i = 0; i < m; ++i) {
    start[3 * i] = polygon.impulse_n[i];
    start.segment<2>(3 * i + 1) = polygon.impulse_t.segment<2>(2 * i);
  }
  return cone_outcome(space, M_llt, v_minus, std::move(start), polygon, kinetic_energies);
}

ImpactResult solve_directly_in_circular_cone(const ContactSpace& space, const MassFactor& M_llt,
                                             const Eigen::VectorXd& v_minus, bool kinetic_energies) {
  return cone_outcome(space, M_llt, v_minus, Eigen::VectorXd(), ImpactResult{}, kinetic_energies);
}

}  // namespace impactsim
