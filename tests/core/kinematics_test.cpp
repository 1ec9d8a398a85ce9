// Forward kinematics against the closed form of a planar two-link arm: poses, body velocities, the
// velocity-product accelerations and point Jacobians.
#include <gtest/gtest.h>

#include <cmath>

#include "core/kinematics.hpp"

namespace impactsim {
namespace {

// Two links of lengths 1 and 0.5 hinged about z; link i's frame sits at its hinge.
Model two_link() {
  Model m;
  for (int i = 0; i < 2; ++i) {
    Body b;
    b.name = i == 0 ? "upper" : "lower";
    b.parent = i - 1;
    b.joint.type = JointType::revolute;
    b.joint.origin = i == 0 ? Vec3::Zero() : Vec3(1, 0, 0);
    b.mass = 1;
    b.inertia = Mat3::Identity() * 0.1;
    m.bodies.push_back(b);
  }
  finalize_model(m);
  return m;
}

TEST(Kinematics, PosesFollowTheClosedForm) {
  const Model m = two_link();
  Kinematics kin(m);
  const double a = 0.4, b = -1.1;
  update_kinematics(m, Eigen::Vector2d(a, b), kin);
  EXPECT_LT((kin.p[1] - Vec3(std::cos(a), std::sin(a), 0)).norm(), 1e-15);
  const Vec3 tip = point_position(kin, 1, Vec3(0.5, 0, 0));
  EXPECT_LT((tip - Vec3(std::cos(a) + 0.5 * std::cos(a + b), std::sin(a) + 0.5 * std::sin(a + b), 0)).norm(), 1e-15);
  EXPECT_LT((kin.R[1] - Eigen::AngleAxisd(a + b, Vec3::UnitZ()).toRotationMatrix()).norm(), 1e-15);
}

TEST(Kinematics, PointJacobianAndBodyVelocityGiveTheTipsVelocity) {
  const Model m = two_link();
  Kinematics kin(m);
  const double a = 0.4, b = -1.1, wa = 0.7, wb = 2.0;
  const Eigen::Vector2d q(a, b), v(wa, wb);
  update_kinematics(m, q, kin);
  update_velocities(m, q, v, kin);
  const Vec3 expected(-wa * std::sin(a) - 0.5 * (wa + wb) * std::sin(a + b),
                      wa * std::cos(a) + 0.5 * (wa + wb) * std::cos(a + b), 0);
  const Eigen::Matrix<double, 6, Eigen::Dynamic> J = point_jacobian(m, kin, 1, Vec3(0.5, 0, 0));
  EXPECT_LT(((J * v).tail<3>() - expected).norm(), 1e-14);
  EXPECT_NEAR((J * v)(2), wa + wb, 1e-15);  // the link's angular velocity about z
  // The body velocity (body coordinates) gives the same point velocity: v_o + omega x r, rotated.
  const Vec3 omega = kin.v[1].head<3>(), v_o = kin.v[1].tail<3>();
  EXPECT_LT((kin.R[1] * (v_o + omega.cross(Vec3(0.5, 0, 0))) - expected).norm(), 1e-14);
}

TEST(Kinematics, VelocityProductAccelerationIsTheTipsCentripetalPart) {
  // With vdot = 0 the tip's classical acceleration is centripetal: -(wa^2) r1 - (wa + wb)^2 r2.
  const Model m = two_link();
  Kinematics kin(m);
  const double a = 0.3, b = 0.9, wa = 1.5, wb = -0.5;
  const Eigen::Vector2d q(a, b), v(wa, wb);
  update_kinematics(m, q, kin);
  update_velocities(m, q, v, kin);
  // Spatial accelerations at vdot = 0, body coordinates, accumulated from the root.
  const Vec6 a0 = kin.c[0];
  const Vec6 a1 = kin.X_parent[1].apply_motion(a0) + kin.c[1];
  const Vec3 r(0.5, 0, 0), omega = kin.v[1].head<3>(), v_o = kin.v[1].tail<3>();
  const Vec3 classical = kin.R[1] * (a1.tail<3>() + a1.head<3>().cross(r) + omega.cross(v_o + omega.cross(r)));
  const Vec3 expected = -wa * wa * Vec3(std::cos(a), std::sin(a), 0) -
                        (wa + wb) * (wa + wb) * 0.5 * Vec3(std::cos(a + b), std::sin(a + b), 0);
  EXPECT_LT((classical - expected).norm(), 1e-13);
}

}  // namespace
}  // namespace impactsim
