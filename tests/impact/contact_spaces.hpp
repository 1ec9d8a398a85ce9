#pragma once
// Contact spaces of the papers' examples, built by hand from their geometry (Halm and Posa §5.4.1,
// Seghete and Murphey §III Example 1), and a random pile of blocks for the block-by-block paths.
#include <algorithm>
#include <cmath>
#include <random>

#include "impact/impact_law.hpp"

namespace impactsim::testing {

// Halm and Posa §6.1: 1 x 2 m block, 1 kg, corners A (-w/2, -h/2) and B (w/2, -h/2), mu = 1.
inline ContactSpace rocking_block() {
  ContactSpace c;
  c.M = Eigen::Vector3d(1, 1, 5.0 / 12).asDiagonal();
  c.J_n.resize(2, 3);
  c.J_n << 0, 1, -0.5, 0, 1, 0.5;
  c.J_t.resize(2, 3);
  c.J_t << 1, 0, 1, 1, 0, 1;
  c.mu = Eigen::Vector2d(1, 1);
  c.e = Eigen::Vector2d::Zero();
  return c;
}

// Dropped flat from 1 cm: v0 = sqrt(2 g 0.01) = 0.4429 m/s.
inline Eigen::Vector3d rocking_block_drop() { return Eigen::Vector3d(0, -std::sqrt(2 * 9.81 * 0.01), 0); }

// A chain of n equal balls on a line, contact i between balls i and i+1; frictionless, restitution e.
inline ContactSpace ball_chain(int n, double e) {
  ContactSpace c;
  c.M = Eigen::MatrixXd::Identity(n, n);
  c.J_n = Eigen::MatrixXd::Zero(n - 1, n);
  for (int i = 0; i + 1 < n; ++i) {
    c.J_n(i, i) = -1;
    c.J_n(i, i + 1) = 1;
  }
  c.J_t = Eigen::MatrixXd::Zero(n - 1, n);
  c.mu = Eigen::VectorXd::Zero(n - 1);
  c.e = Eigen::VectorXd::Constant(n - 1, e);
  return c;
}

// `bodies` free bodies in 3-D (6 velocities each, M block diagonal with a random 6 x 6 inertia each,
// M_blocks left empty) and min(10, bodies - 1) frictional contacts between neighbours or with the
// ground, approaching. Twelve bodies: 72 velocities, M^-1 products go block by block.
inline ContactSpace pile_of_blocks(std::mt19937& rng, int bodies = 12) {
  std::normal_distribution<double> normal(0.0, 1.0);
  const int nv = 6 * bodies, m = std::min(10, bodies - 1);
  ContactSpace c;
  c.tangent_dim = 2;
  c.M = Eigen::MatrixXd::Zero(nv, nv);
  for (int b = 0; b < bodies; ++b) {
    Eigen::MatrixXd A(6, 6);
    for (int k = 0; k < 36; ++k) A(k) = normal(rng);
    c.M.block(6 * b, 6 * b, 6, 6) = A * A.transpose() + Eigen::MatrixXd::Identity(6, 6);
  }
  c.J_n = Eigen::MatrixXd::Zero(m, nv);
  c.J_t = Eigen::MatrixXd::Zero(2 * m, nv);
  for (int i = 0; i < m; ++i) {
    const int a = i, b = i % 3 == 0 ? -1 : i + 1;  // every third against the ground
    for (int k = 0; k < 6; ++k)
      for (int row = 0; row < 3; ++row) {
        const double x = normal(rng), y = normal(rng);
        (row == 0 ? c.J_n(i, 6 * a + k) : c.J_t(2 * i + row - 1, 6 * a + k)) = x;
        if (b >= 0) (row == 0 ? c.J_n(i, 6 * b + k) : c.J_t(2 * i + row - 1, 6 * b + k)) = -y;
      }
  }
  c.mu = Eigen::VectorXd::Constant(m, 0.4);
  c.e = Eigen::VectorXd::Constant(m, 0.3);
  return c;
}

}  // namespace impactsim::testing
