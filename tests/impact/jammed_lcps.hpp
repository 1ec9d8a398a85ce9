#pragma once
// A reproducible set of jammed frictional impact LCPs: more contact rows than degrees of freedom,
// many of them parallel or repeated, so the Delassus matrix W_bar = Jbar M^-1 Jbar^T is singular.
// Each problem is the Anitescu-Potra impact LCP (impact/anitescu_potra.hpp) of one rigid body (a
// planar block, nv = 3, k = 2, or a 3-D box, nv = 6, k = 4) or a short chain of them, pressed onto
// flat faces and on each other: contact points on a coarse grid of each face (so points repeat),
// normals along a few axes of a randomly turned frame (dependent rows only up to rounding), every
// contact approaching. n = m (k + 2) variables, up to 120: every contact has a friction block, the
// frictionless ones (mu = 0) too, which the law itself leaves out (their degenerate variables make
// the set harder, and keep it the set tools/compare_lcp_siconos.py compares with Siconos).
#include <array>
#include <random>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include "impact/anitescu_potra.hpp"
#include "numerics/friction_cone.hpp"

namespace impactsim::testing {

struct JammedLcp {
  ContactSpace space;
  Eigen::VectorXd v_minus;
  CoulombLcp lcp;
  Eigen::MatrixXd Minv_JbarT;  // v+ = v- + Minv_JbarT z.head(Minv_JbarT.cols())
};

// Problem `index` of the set; the same index gives the same problem everywhere.
inline JammedLcp jammed_lcp(int index) {
  std::mt19937_64 rng(0x1a2b3c4dULL + static_cast<unsigned long long>(index));
  std::uniform_real_distribution<double> u(0, 1);
  const bool planar = index % 2 == 0;
  const int dof = planar ? 3 : 6, bodies = 1 + index % 3, nv = dof * bodies;
  const int k = planar ? 2 : std::array{4, 8, 16}[index / 2 % 3], max_contacts = 120 / (k + 2);
  const int m = std::min(max_contacts, dof + 1 + static_cast<int>(u(rng) * (max_contacts - dof)));
  JammedLcp p;
  ContactSpace& c = p.space;
  c.tangent_dim = planar ? 1 : 2;
  c.friction_directions = k;
  // Each body a box of mass 1..3 kg with inertia of a 0.2..0.6 m cube.
  c.M = Eigen::MatrixXd::Zero(nv, nv);
  for (int b = 0; b < bodies; ++b) {
    const double mass = 1 + 2 * u(rng), side = 0.2 + 0.4 * u(rng), inertia = mass * side * side / 6;
    for (int j = 0; j < dof; ++j) c.M(b * dof + j, b * dof + j) = j < (planar ? 2 : 3) ? mass : inertia;
  }
  // The whole arrangement turned by a random angle, so rows are dependent only up to rounding.
  const double angle = 2 * 3.141592653589793 * u(rng);
  const Eigen::Matrix2d R2 = Eigen::Rotation2Dd(angle).toRotationMatrix();
  const Eigen::Matrix3d R3 =
      Eigen::AngleAxisd(angle, Eigen::Vector3d(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5).normalized()).toRotationMatrix();
  c.J_n = Eigen::MatrixXd::Zero(m, nv);
  c.J_t = Eigen::MatrixXd::Zero(m * c.tangent_dim, nv);
  c.mu = Eigen::VectorXd(m);
  c.e = Eigen::VectorXd::Zero(m);
  const bool flat = index % 4 == 2;  // every contact on the bodies' bottom faces
  for (int i = 0; i < m; ++i) {
    const int b = static_cast<int>(u(rng) * bodies);
    // Half the contacts of a body after the first are against the body before it, the rest
    // against the world.
    const int other = b > 0 && u(rng) < 0.5 ? b - 1 : -1;
    const auto grid = [&] { return 0.1 * (static_cast<int>(u(rng) * 5) - 2); };  // 5 values: repeats
    c.mu[i] = std::array{0.0, 0.2, 0.5, 1.0}[static_cast<int>(u(rng) * 4)];
    if (planar) {
      // Normal +y (a floor) or +-x (walls); the contact point r relative to the body's centre.
      const int axis = flat ? 0 : static_cast<int>(u(rng) * 3);
      const Eigen::Vector2d n = axis == 0 ? Eigen::Vector2d(0, 1) : Eigen::Vector2d(axis == 1 ? 1 : -1, 0);
      const Eigen::Vector2d t(-n.y(), n.x());
      const Eigen::Vector2d r = R2 * (-0.2 * n + grid() * t);
      const auto row = [&](const Eigen::Vector2d& d) {
        Eigen::RowVector3d J;
        J << d.x(), d.y(), r.x() * d.y() - r.y() * d.x();
        return J;
      };
      c.J_n.block(i, b * 3, 1, 3) = row(R2 * n);
      c.J_t.block(i, b * 3, 1, 3) = row(R2 * t);
      if (other >= 0) {  // against the next body: its point moves the other way
        c.J_n.block(i, other * 3, 1, 3) = -row(R2 * n);
        c.J_t.block(i, other * 3, 1, 3) = -row(R2 * t);
      }
    } else {
      const int axis = flat ? 0 : static_cast<int>(u(rng) * 3);
      Eigen::Vector3d n = Eigen::Vector3d::Unit(axis);
      Eigen::Vector3d t1 = Eigen::Vector3d::Unit((axis + 1) % 3), t2 = n.cross(t1);
      const Eigen::Vector3d r = R3 * (-0.2 * n + grid() * t1 + grid() * t2);
      const auto row = [&](const Eigen::Vector3d& d) {
        Eigen::Matrix<double, 1, 6> J;
        J << d.transpose(), r.cross(d).transpose();
        return J;
      };
      n = R3 * n;
      t1 = R3 * t1;
      t2 = R3 * t2;
      c.J_n.block(i, b * 6, 1, 6) = row(n);
      c.J_t.block(2 * i, b * 6, 1, 6) = row(t1);
      c.J_t.block(2 * i + 1, b * 6, 1, 6) = row(t2);
      if (other >= 0) {
        c.J_n.block(i, other * 6, 1, 6) = -row(n);
        c.J_t.block(2 * i, other * 6, 1, 6) = -row(t1);
        c.J_t.block(2 * i + 1, other * 6, 1, 6) = -row(t2);
      }
    }
  }
  // Either every contact approaches (against the sum of the normals, plus a random part), or one
  // contact is hit while the others rest, their normal and tangential velocities zero but for
  // rounding-sized noise: the degenerate case of a box landing on a stack.
  Eigen::VectorXd v;
  const Eigen::VectorXd Minv = c.M.diagonal().cwiseInverse();  // M is diagonal
  if (index % 4 < 2) {
    v = -(c.J_n.transpose() * Eigen::VectorXd::Ones(m)).cwiseProduct(Minv);
    v /= v.norm();
    for (int j = 0; j < nv; ++j) v[j] += 0.1 * (u(rng) - 0.5);
  } else if (index % 4 == 2) {
    // Landing flat and sliding: every body moves down the first contact's normal and along its
    // tangent, turning at a rounding-sized rate.
    v = Eigen::VectorXd::Zero(nv);
    for (int b = 0; b < bodies; ++b) {
      const Eigen::VectorXd n = c.J_n.row(0).segment(b * dof, dof), t = c.J_t.row(0).segment(b * dof, dof);
      v.segment(b * dof, dof) = -(1 + u(rng)) * n + u(rng) * t;
    }
    for (int j = 0; j < nv; ++j) v[j] += 1e-11 * (u(rng) - 0.5);
  } else {
    const int hit = static_cast<int>(u(rng) * m);
    v = -c.J_n.row(hit).transpose().cwiseProduct(Minv);
    v /= v.norm();
    for (int j = 0; j < nv; ++j) v[j] += 1e-12 * (u(rng) - 0.5);
  }
  p.v_minus = v;
  // The Anitescu-Potra LCP (impact/anitescu_potra.hpp, eq. (31)) with a block on every contact.
  const CoulombLayout layout = every_contact_frictional(c.mu, friction_polygon(c.tangent_dim, k));
  Eigen::MatrixXd Jbar(m + m * k, nv);
  Jbar << c.J_n, friction_rows(c.J_t, layout.D);
  p.Minv_JbarT = c.M.llt().solve(Jbar.transpose());
  p.lcp = build_coulomb_lcp(Jbar * p.Minv_JbarT, Jbar * v, layout);  // e = 0: w_bar = Jbar v-
  return p;
}

}  // namespace impactsim::testing
