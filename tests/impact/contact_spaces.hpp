#pragma once
// Contact spaces of the papers' examples, built by hand from their geometry (Halm and Posa §5.4.1,
// Seghete and Murphey §III Example 1).
#include <cmath>

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

}  // namespace impactsim::testing
