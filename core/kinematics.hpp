#pragma once
// Forward kinematics: per-body poses, motion subspaces and spatial velocities for a given (q, v).
// Kinematics is a workspace sized once per model; the update functions never allocate.
#include <vector>

#include "core/joint.hpp"
#include "core/model.hpp"

namespace impactsim {

struct Kinematics {
  explicit Kinematics(const Model& model);

  std::vector<Transform> X_parent;    // i_X_parent(i); for a root body, i_X_world
  std::vector<Mat3> R;                // body axes expressed in the world frame
  std::vector<Vec3> p;                // body frame origin in the world frame [m]
  std::vector<MotionSubspace> S;      // joint motion subspace, body coordinates
  std::vector<Mat6> I_body;           // spatial inertia about the body origin, body coordinates
  // Filled by update_velocities:
  std::vector<Vec6> v;                // body spatial velocity, body coordinates
  std::vector<Vec6> c;                // velocity-product acceleration c_J + v x (S qdot), body coords
};

void update_kinematics(const Model& model, const Eigen::VectorXd& q, Kinematics& kin);
// Requires update_kinematics at the same q.
void update_velocities(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                       Kinematics& kin);

// World position of a point given in a body's frame.
Vec3 point_position(const Kinematics& kin, int body, const Vec3& point_in_body);

// Column k of body j's joint in the Jacobian of world point x on j or a descendant: the angular
// velocity (world axes) and the point's linear velocity (world) per unit of that joint velocity.
inline Vec6 point_jacobian_column(const Kinematics& kin, int j, int k, const Vec3& x) {
  const Vec3 w = kin.R[j] * kin.S[j].col(k).head<3>();
  Vec6 column;
  column << w, kin.R[j] * kin.S[j].col(k).tail<3>() + w.cross(x - kin.p[j]);
  return column;
}

// Jacobian of a body point: rows 0-2 map v to the body's angular velocity in world axes, rows 3-5
// map v to the point's linear velocity in world axes. Columns of non-ancestor joints are zero.
Eigen::Matrix<double, 6, Eigen::Dynamic> point_jacobian(const Model& model, const Kinematics& kin,
                                                       int body, const Vec3& point_in_body);

}  // namespace impactsim
