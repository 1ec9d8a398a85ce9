#pragma once
// Joint models. For each joint type: its coordinates, the joint transform XJ(q) from the joint frame
// to the child body frame, the motion subspace S(q) (child body coordinates, so that the joint's
// relative spatial velocity is S v), its apparent derivative term c_J = Sdot v, and Gamma(q).
//
//   type       q (nq)                         v (nv)                              Gamma
//   planar     x, y, theta (3)                vx, vy, omega: parent-frame        identity
//                                             velocity of the origin, rate about z
//   free       x, y, z, qw, qx, qy, qz (7)    vx, vy, vz: parent-frame velocity  [I 0; 0 Q(q)/2]
//                                             of the origin; wx, wy, wz: angular
//                                             velocity in the body frame
//   revolute   theta (1), about axis          omega (1)                           identity
//   prismatic  s (1), along axis              sdot (1)                            identity
//   fixed      none                           none
// The free joint follows MuJoCo's convention (linear velocity in the parent frame, angular velocity
// in the body frame); its quaternion is (w, x, y, z) and rotates body axes into the parent's.
#include <string>
#include <string_view>
#include <vector>

#include "core/spatial.hpp"

namespace impactsim {

enum class JointType { planar, free, revolute, prismatic, fixed };

// One joint: its type, where its frame sits in the parent body and where its coordinates sit in
// the model's q and v (set by finalize_model).
struct Joint {
  JointType type = JointType::fixed;
  Vec3 origin = Vec3::Zero();        // joint frame origin, in the parent body frame [m]
  Mat3 rotation = Mat3::Identity();  // joint frame axes, expressed in the parent body frame
  Vec3 axis = Vec3::UnitZ();         // revolute/prismatic unit axis, in the joint frame
  // Viscous joint damping (revolute/prismatic, >= 0): the generalized force -damping * qdot on the
  // joint's coordinate [N m s/rad or N s/m]; it only ever removes energy.
  double damping = 0.0;
  int q_index = 0;                   // first entry of this joint in q
  int v_index = 0;                   // first entry of this joint in v
  int nq = 0;
  int nv = 0;
};

using MotionSubspace = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6>;

int joint_nq(JointType type);
int joint_nv(JointType type);
// Revolute and prismatic joints: one coordinate about or along an axis, the joints that take damping.
bool joint_has_axis(JointType type);
std::string_view joint_type_name(JointType type);
// Coordinate names ("x", "theta", ...) for q and v of a joint type.
std::vector<std::string_view> joint_q_names(JointType type);
std::vector<std::string_view> joint_v_names(JointType type);

// The joint's own rotation (child axes in joint-frame axes) and translation, from its q segment.
Mat3 joint_rotation(const Joint& joint, const double* q);
Vec3 joint_translation(const Joint& joint, const double* q);

MotionSubspace motion_subspace(const Joint& joint, const double* q);
// The same given R_joint = joint_rotation(joint, q), to spare computing it twice.
MotionSubspace motion_subspace(const Joint& joint, const Mat3& R_joint);
Vec6 joint_bias(const Joint& joint, const double* q, const double* v);

// qdot segment = Gamma(q) v segment.
void joint_qdot(const Joint& joint, const double* q, const double* v, double* qdot);

// Moves q by v*dt exactly along the joint's manifold (quaternion exponential for free joints).
void joint_integrate(const Joint& joint, const double* q, const double* v, double dt, double* q_out);

// Restores unit quaternions; returns the largest norm error that was corrected.
double joint_normalize(const Joint& joint, double* q);

}  // namespace impactsim
