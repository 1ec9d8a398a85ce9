// The model: coordinates assigned joint by joint, names, planarity, the neutral configuration, and
// the whole-configuration joint functions.
#include <gtest/gtest.h>

#include <random>

#include "core/model.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

Model two_bodies(JointType first, JointType second, const Vec3& axis = Vec3::UnitZ()) {
  Model m;
  Body a;
  a.name = "a";
  a.joint.type = first;
  a.joint.axis = axis;
  m.bodies.push_back(a);
  Body b;
  b.name = "b";
  b.parent = 0;
  b.joint.type = second;
  b.joint.axis = axis;
  m.bodies.push_back(b);
  finalize_model(m);
  return m;
}

TEST(Model, CoordinatesAreAssignedJointByJointWithTheirNames) {
  const Model m = two_bodies(JointType::free, JointType::revolute, Vec3::UnitX());
  EXPECT_EQ(m.nq, 8);
  EXPECT_EQ(m.nv, 7);
  EXPECT_EQ(m.bodies[1].joint.q_index, 7);
  EXPECT_EQ(m.bodies[1].joint.v_index, 6);
  EXPECT_EQ(m.q_names.front(), "a.x");
  EXPECT_EQ(m.q_names[3], "a.qw");
  EXPECT_EQ(m.v_names[3], "a.wx");
  EXPECT_EQ(m.q_names.back(), "b.theta");
  EXPECT_EQ(m.body_index("b"), 1);
  EXPECT_EQ(m.body_index("c"), -1);
  const Eigen::VectorXd q0 = neutral_configuration(m);
  EXPECT_EQ(q0(3), 1.0);  // unit quaternion
  EXPECT_EQ(q0.norm(), 1.0);
}

TEST(Model, TotalMassSumsEveryBodyMasslessLinksToo) {
  Model m = two_bodies(JointType::free, JointType::revolute);
  EXPECT_EQ(m.total_mass(), 0.0);
  m.bodies[0].mass = 1.5;
  m.bodies[1].mass = 0.25;
  EXPECT_EQ(m.total_mass(), 1.75);
}

TEST(Model, PlanarityIsInferred) {
  EXPECT_TRUE(two_bodies(JointType::planar, JointType::revolute).planar);
  EXPECT_TRUE(two_bodies(JointType::planar, JointType::prismatic, Vec3::UnitX()).planar);
  EXPECT_FALSE(two_bodies(JointType::planar, JointType::revolute, Vec3::UnitX()).planar);
  EXPECT_FALSE(two_bodies(JointType::free, JointType::fixed).planar);
}

TEST(Model, AParentMustComeFirst) {
  Model m;
  Body b;
  b.name = "orphan";
  b.parent = 0;
  m.bodies.push_back(b);
  EXPECT_THROW(finalize_model(m), std::invalid_argument);
}

TEST(Model, WholeConfigurationFunctionsApplyEachJoint) {
  std::mt19937 rng(5);
  const Model m = testing::free_body_model(rng);
  const Eigen::VectorXd q = testing::random_q(m, rng), v = testing::random_v(m, rng);
  Eigen::VectorXd moved;
  integrate_configuration(m, q, v, 0.1, moved);
  EXPECT_EQ(moved, testing::integrate(m, q, v, 0.1));
  EXPECT_NEAR(moved.segment<4>(3).norm(), 1.0, 1e-14);
  // qdot = Gamma v is the derivative of the exact step.
  Eigen::VectorXd qdot(m.nq), ahead, behind;
  configuration_rate(m, q, v, qdot.data());
  integrate_configuration(m, q, v, 1e-6, ahead);
  integrate_configuration(m, q, v, -1e-6, behind);
  EXPECT_LT((qdot - (ahead - behind) / 2e-6).norm(), 1e-8);
  Eigen::VectorXd scaled = q;
  scaled.segment<4>(3) *= 3.0;
  normalize_configuration(m, scaled.data());
  EXPECT_LT((scaled - q).norm(), 1e-15);
}

TEST(Model, InertiaProblemsAreThoseNoRigidBodyHas) {
  EXPECT_EQ(inertia_problem(Vec3(1, 2, 2.5).asDiagonal()), "");
  EXPECT_EQ(inertia_problem(Mat3::Zero()), "");  // a point mass
  EXPECT_EQ(inertia_problem(Vec3(0, 1, 1).asDiagonal()), "");  // a rod: I1 + I2 = I3 holds with equality
  EXPECT_EQ(inertia_problem(Vec3(1, 1, 3).asDiagonal()),
            "principal moments violate the triangle inequality I1 + I2 >= I3, so no rigid body has them");
  // Off-diagonal terms that make it indefinite: eigenvalues -1 and 3.
  Mat3 I;
  I << 1, 2, 0, 2, 1, 0, 0, 0, 1;
  EXPECT_EQ(inertia_problem(I), "inertia is not positive semi-definite (principal moments -1, 1, 3)");
}

}  // namespace
}  // namespace impactsim
