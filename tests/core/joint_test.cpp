// Each joint's Gamma, motion subspace and bias term against finite differences of its transform.
#include <gtest/gtest.h>

#include "core/joint.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

class JointTest : public ::testing::TestWithParam<JointType> {
 protected:
  Joint joint() const {
    Joint j;
    j.type = GetParam();
    j.nq = joint_nq(j.type);
    j.nv = joint_nv(j.type);
    j.axis = Vec3(0.3, -0.5, 0.8).normalized();
    return j;
  }
  std::vector<double> random_q(const Joint& j, std::mt19937& rng) const {
    std::vector<double> q(j.nq);
    for (double& x : q) x = std::uniform_real_distribution<double>(-1, 1)(rng);
    joint_normalize(j, q.data());
    return q;
  }
  std::vector<double> random_v(const Joint& j, std::mt19937& rng) const {
    std::vector<double> v(j.nv);
    for (double& x : v) x = std::uniform_real_distribution<double>(-2, 2)(rng);
    return v;
  }
  std::vector<double> moved(const Joint& j, const std::vector<double>& q, const std::vector<double>& v, double dt) const {
    std::vector<double> out(j.nq);
    joint_integrate(j, q.data(), v.data(), dt, out.data());
    return out;
  }
};

TEST_P(JointTest, GammaIsTheDerivativeOfTheExactStep) {
  const Joint j = joint();
  std::mt19937 rng(5);
  const auto q = random_q(j, rng), v = random_v(j, rng);
  std::vector<double> qdot(j.nq);
  joint_qdot(j, q.data(), v.data(), qdot.data());
  const double h = 1e-6;
  const auto qp = moved(j, q, v, h), qm = moved(j, q, v, -h);
  for (int i = 0; i < j.nq; ++i) EXPECT_NEAR(qdot[i], (qp[i] - qm[i]) / (2 * h), 1e-8) << i;
}

// The relative spatial velocity S v, seen in child coordinates, equals the velocity obtained by
// differentiating the child's pose in the joint frame.
TEST_P(JointTest, MotionSubspaceMatchesThePoseDerivative) {
  const Joint j = joint();
  std::mt19937 rng(6);
  const auto q = random_q(j, rng), v = random_v(j, rng);
  const double h = 1e-6;
  const auto qp = moved(j, q, v, h), qm = moved(j, q, v, -h);
  const Mat3 R = joint_rotation(j, q.data());
  const Vec3 p_dot = (joint_translation(j, qp.data()) - joint_translation(j, qm.data())) / (2 * h);
  const Eigen::AngleAxisd dR(R.transpose() * joint_rotation(j, qp.data()) *
                             (R.transpose() * joint_rotation(j, qm.data())).transpose());
  const Vec3 w_child = dR.axis() * dR.angle() / (2 * h);
  const Vec6 expected = spatial(w_child, R.transpose() * p_dot);
  const Vec6 Sv = motion_subspace(j, q.data()) * Eigen::Map<const Eigen::VectorXd>(v.data(), j.nv);
  EXPECT_LT((Sv - expected).norm(), 1e-7);
}

TEST_P(JointTest, BiasIsTheRateOfChangeOfTheMotionSubspace) {
  const Joint j = joint();
  std::mt19937 rng(7);
  const auto q = random_q(j, rng), v = random_v(j, rng);
  const double h = 1e-6;
  const auto qp = moved(j, q, v, h), qm = moved(j, q, v, -h);
  const Eigen::Map<const Eigen::VectorXd> vv(v.data(), j.nv);
  const Vec6 expected = (motion_subspace(j, qp.data()) * vv - motion_subspace(j, qm.data()) * vv) / (2 * h);
  EXPECT_LT((joint_bias(j, q.data(), v.data()) - expected).norm(), 1e-7);
}

INSTANTIATE_TEST_SUITE_P(Types, JointTest,
                         ::testing::Values(JointType::planar, JointType::free, JointType::revolute,
                                           JointType::prismatic),
                         [](const auto& info) { return std::string(joint_type_name(info.param)); });

TEST(Joint, NamesMatchCoordinateCounts) {
  for (JointType t : {JointType::planar, JointType::free, JointType::revolute, JointType::prismatic, JointType::fixed}) {
    EXPECT_EQ(static_cast<int>(joint_q_names(t).size()), joint_nq(t));
    EXPECT_EQ(static_cast<int>(joint_v_names(t).size()), joint_nv(t));
  }
}

TEST(Joint, FreeQuaternionIsRenormalized) {
  Joint j;
  j.type = JointType::free;
  double q[7] = {0, 0, 0, 2, 0, 0, 0};
  EXPECT_NEAR(joint_normalize(j, q), 1.0, 1e-15);
  EXPECT_DOUBLE_EQ(q[3], 1.0);
}

TEST(Joint, OnlyRevoluteAndPrismaticJointsHaveAnAxis) {
  EXPECT_TRUE(joint_has_axis(JointType::revolute));
  EXPECT_TRUE(joint_has_axis(JointType::prismatic));
  for (JointType t : {JointType::planar, JointType::free, JointType::fixed}) EXPECT_FALSE(joint_has_axis(t)) << joint_type_name(t);
}

}  // namespace
}  // namespace impactsim
