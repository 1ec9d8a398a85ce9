#pragma once
// The polyhedral Coulomb law as an LCP in contact space, shared by the time-stepping schemes.
// Given m contacts whose normal and tangential "velocities" depend affinely on their forces,
//   u = A f + u0,   f = [f_n (m); f_t (m td)],   u = [u_n; u_t]   (A symmetric positive semi-definite),
// find f with
//   0 <= u_n  _|_  f_n >= 0,
//   f_t,i = D beta_i,  0 <= D^T u_t,i + gamma_i 1  _|_  beta_i >= 0,
//   0 <= mu_i f_n,i - 1^T beta_i  _|_  gamma_i >= 0
// (Anitescu and Potra; Gavrea, Anitescu and Potra (4.4d-f)): the contacts separate or stay closed,
// and friction inside the polygon sticks (u_t = 0) or sits on its edge opposing the slip. D is the
// friction polygon of impact/friction_cone.hpp (k = 2, exact, in a planar scene). The LCP variables
// are z = [f_n; beta; gamma]; its matrix is copositive, so Lemke applies.
#include <Eigen/Core>

#include "impact/lcp.hpp"

namespace impactsim {

struct CoulombLcp {
  Eigen::MatrixXd D;  // td x k polygon directions
  int m = 0, td = 1, k = 2;
  Eigen::MatrixXd W;  // (m + m k + m) square
  Eigen::VectorXd w;
};

CoulombLcp build_coulomb_lcp(const Eigen::MatrixXd& A, const Eigen::VectorXd& u0, int tangent_dim,
                             const Eigen::VectorXd& mu, int friction_directions);

// f = [f_n; f_t] from an LCP solution z.
Eigen::VectorXd coulomb_forces(const CoulombLcp& lcp, const Eigen::VectorXd& z);

}  // namespace impactsim
