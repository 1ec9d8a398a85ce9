#pragma once
// Linearized Coulomb friction (Halm and Posa §1.4, eq. (32)-(35)): contact i's tangential impulse
// is D lambda_D,i with lambda_D,i >= 0 and 1^T lambda_D,i <= mu_i lambda_n,i. D holds k unit
// directions in the tangent plane: D = [1, -1] in a planar scene (exact), k evenly spaced
// directions in 3-D. J_D stacks D^T J_t,i per contact; E = blkdiag(1_k).
#include "impact/impact_law.hpp"

namespace impactsim {

struct FrictionCone {
  Eigen::MatrixXd D;    // tangent_dim x k
  Eigen::MatrixXd J_D;  // (m k) x nv
  Eigen::MatrixXd E;    // (m k) x m
  int k = 0;
};

FrictionCone linearize_friction(const ContactSpace& contacts);

// D alone: [1, -1] for tangent_dim 1, else k unit directions 2 pi j / k.
Eigen::MatrixXd friction_polygon(int tangent_dim, int k);

// Tangential impulses in contact coordinates from lambda_D: (m tangent_dim).
Eigen::VectorXd tangential_impulse(const FrictionCone& cone, const Eigen::VectorXd& lambda_D, int tangent_dim);

}  // namespace impactsim
