#pragma once
// Linearized Coulomb friction (Halm and Posa §2.2.2, eq. (32)-(35)): contact i's tangential impulse
// is D beta_i with beta_i >= 0 and 1^T beta_i <= mu_i lambda_n,i. D holds k unit directions in the
// tangent plane: D = [1, -1] in a planar scene (exact), k evenly spaced directions in 3-D. The
// friction rows of a contact are D^T J_t,i (k rows): the tangential velocity along each direction.
#include <Eigen/Core>

namespace impactsim {

// D: [1, -1] for tangent_dim 1, else the k unit directions at angles 2 pi j / k (tangent_dim x k).
Eigen::MatrixXd friction_polygon(int tangent_dim, int k);

// D^T J_t,i stacked contact by contact: (m k) x nv from J_t ((m tangent_dim) x nv).
Eigen::MatrixXd friction_rows(const Eigen::MatrixXd& J_t, const Eigen::MatrixXd& D);

// Tangential impulses in tangent coordinates, D beta_i per contact: (m tangent_dim) from beta (m k).
Eigen::VectorXd tangential_impulse(const Eigen::MatrixXd& D, const Eigen::VectorXd& beta);

}  // namespace impactsim
