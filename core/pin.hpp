#pragma once
// Pins: bilateral constraints that hold a point of one body on a point of another (or of the
// world), phi = x_A - x_B = 0 in world components (x, y in a planar model; x, y, z in 3-D).
// The event-driven loop has joints only in the tree; the time-stepping schemes also take pins, so
// a pendulum can be written in absolute coordinates as in Drumwright's §4.4.
// G = d phi / dq Gamma(q) maps v to the points' relative velocity; Gdot v is d/dt (G v) at fixed v.
#include <string>
#include <vector>

#include "core/kinematics.hpp"

namespace impactsim {

struct PinDef {
  std::string name;
  int body_a = -1;              // -1 is the world
  Vec3 point_a = Vec3::Zero();  // in A's body frame [m]
  int body_b = -1;
  Vec3 point_b = Vec3::Zero();  // in B's body frame [m]
};

// Rows per pin: 2 in a planar model, 3 in 3-D.
int pin_rows(const Model& model);

struct PinState {
  Eigen::VectorXd phi;     // rows, m
  Eigen::MatrixXd G;       // rows x nv
  Eigen::VectorXd Gdot_v;  // rows, m/s^2
  // Scratch of evaluate_pins, kept so that evaluating every step does not allocate.
  Eigen::VectorXd q_shift, phi_shift;
  Eigen::MatrixXd G_shift;
};

// phi, G and Gdot v of every pin at (q, v); kin is workspace.
void evaluate_pins(const Model& model, const std::vector<PinDef>& pins, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& v, Kinematics& kin, PinState& out);

}  // namespace impactsim
