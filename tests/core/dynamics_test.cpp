// M(q), C(q, v), Jacobians and energies checked against independent routes: the body-by-body kinetic
// energy, finite differences of forward kinematics, and finite-differenced Lagrange equations.
#include <gtest/gtest.h>

#include <limits>

#include <Eigen/Eigenvalues>

#include "core/dynamics.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

using testing::integrate;

struct Case {
  std::string name;
  std::function<Model(std::mt19937&)> make;
};

class DynamicsTest : public ::testing::TestWithParam<Case> {};

double kinetic(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  Kinematics kin(m);
  update_kinematics(m, q, kin);
  update_velocities(m, q, v, kin);
  return kinetic_energy(m, kin);
}

double potential(const Model& m, const Eigen::VectorXd& q) {
  Kinematics kin(m);
  update_kinematics(m, q, kin);
  return potential_energy(m, kin);
}

Eigen::VectorXd bias(const Model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  Kinematics kin(m);
  update_kinematics(m, q, kin);
  update_velocities(m, q, v, kin);
  std::vector<Vec6> acc, force;
  Eigen::VectorXd C;
  bias_forces(m, kin, acc, force, C);
  return C;
}

TEST_P(DynamicsTest, MassMatrixIsSymmetricPositiveDefiniteAndTheHessianOfKineticEnergy) {
  std::mt19937 rng(7);
  const Model m = GetParam().make(rng);
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::VectorXd q = testing::random_q(m, rng);
    const Eigen::MatrixXd M = testing::mass_matrix_at(m, q);
    EXPECT_LT((M - M.transpose()).norm(), 1e-12 * M.norm());
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues().minCoeff(), 0.0);
    // K is quadratic in v, so polarization gives its Hessian exactly: H_ab = K(e_a + e_b) - K(e_a) - K(e_b).
    const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(m.nv, m.nv);
    for (int a = 0; a < m.nv; ++a)
      for (int b = 0; b < m.nv; ++b) {
        const double H = kinetic(m, q, I.col(a) + I.col(b)) - kinetic(m, q, I.col(a)) - kinetic(m, q, I.col(b));
        EXPECT_NEAR(M(a, b), a == b ? 2 * kinetic(m, q, I.col(a)) : H, 1e-10 * (1 + M.norm()));
      }
    const Eigen::VectorXd v = testing::random_v(m, rng);
    EXPECT_NEAR(0.5 * v.dot(M * v), kinetic(m, q, v), 1e-12 * (1 + M.norm()));
  }
}

// mass_matrix writes only the blocks the joint tree couples and zeroes M only when its size is
// wrong: refilled at a new configuration it must hold exactly what a fresh zero matrix gets.
TEST_P(DynamicsTest, MassMatrixRefilledInPlaceEqualsAFreshOne) {
  std::mt19937 rng(11);
  const Model m = GetParam().make(rng);
  Kinematics kin(m);
  std::vector<Mat6> composite;
  Eigen::MatrixXd reused;  // empty: the first call sizes and zeroes it
  for (int trial = 0; trial < 5; ++trial) {
    update_kinematics(m, testing::random_q(m, rng), kin);
    mass_matrix(m, kin, composite, reused);
    Eigen::MatrixXd fresh = Eigen::MatrixXd::Zero(m.nv, m.nv);
    mass_matrix(m, kin, composite, fresh);
    ASSERT_EQ(reused.rows(), m.nv);
    EXPECT_TRUE(reused == fresh) << "trial " << trial;
    EXPECT_LT((reused - reused.transpose()).norm(), 1e-12 * (1 + reused.norm()));
  }
  Eigen::MatrixXd wrong_size = Eigen::MatrixXd::Constant(m.nv + 1, m.nv, 7.0);
  mass_matrix(m, kin, composite, wrong_size);
  Eigen::MatrixXd fresh = Eigen::MatrixXd::Zero(m.nv, m.nv);
  mass_matrix(m, kin, composite, fresh);
  EXPECT_TRUE(wrong_size == fresh);
}

TEST_P(DynamicsTest, PointJacobianMatchesFiniteDifferences) {
  std::mt19937 rng(11);
  const Model m = GetParam().make(rng);
  Kinematics kin(m), kp(m), km(m);
  for (int trial = 0; trial < 10; ++trial) {
    const Eigen::VectorXd q = testing::random_q(m, rng), v = testing::random_v(m, rng);
    update_kinematics(m, q, kin);
    const double h = 1e-6;
    update_kinematics(m, integrate(m, q, v, h), kp);
    update_kinematics(m, integrate(m, q, v, -h), km);
    for (int body = 0; body < static_cast<int>(m.bodies.size()); ++body) {
      const Vec3 point = testing::random_vec(rng);
      const auto J = point_jacobian(m, kin, body, point);
      const Vec3 fd_lin = (point_position(kp, body, point) - point_position(km, body, point)) / (2 * h);
      EXPECT_LT((J.bottomRows<3>() * v - fd_lin).norm(), 1e-7) << "body " << body;
      // Angular part: R(t+h) R(t-h)^T = exp(2h [w]).
      const Eigen::AngleAxisd dR(kp.R[body] * km.R[body].transpose());
      const Vec3 fd_ang = dR.axis() * dR.angle() / (2 * h);
      EXPECT_LT((J.topRows<3>() * v - fd_ang).norm(), 1e-7) << "body " << body;
    }
  }
}

// Lagrange's equations in local coordinates r about q0: q(r) = q0 moved by r (exactly, on the
// manifold), and v(r, rdot) = Gamma(q(r))^+ d/dt q(r). At r = 0 the accelerations of both sets
// coincide, so with rddot = 0: C(q0, v0) = d/dr(dL/drdot) rdot - dL/dr, with L = K - U.
TEST_P(DynamicsTest, BiasForcesMatchFiniteDifferencedLagrangeEquations) {
  std::mt19937 rng(13);
  const Model m = GetParam().make(rng);
  const int n = m.nv;
  for (int trial = 0; trial < 5; ++trial) {
    const Eigen::VectorXd q0 = testing::random_q(m, rng), v0 = testing::random_v(m, rng);
    auto config = [&](const Eigen::VectorXd& r) { return integrate(m, q0, r, 1.0); };
    // v(r, rdot): the identity except for free-joint rotations R0 exp([phi]), whose body angular
    // velocity is J_r(phi) phidot with the right Jacobian of SO(3).
    auto velocity = [&](const Eigen::VectorXd& r, const Eigen::VectorXd& rdot) {
      Eigen::VectorXd v = rdot;
      for (const Body& b : m.bodies) {
        if (b.joint.type != JointType::free) continue;
        const Vec3 phi = r.segment<3>(b.joint.v_index + 3);
        const double t = phi.norm();
        const Mat3 P = skew(phi);
        const Mat3 Jr = t < 1e-8 ? Mat3(Mat3::Identity() - 0.5 * P)
                                 : Mat3(Mat3::Identity() - (1 - std::cos(t)) / (t * t) * P +
                                        (t - std::sin(t)) / (t * t * t) * P * P);
        v.segment<3>(b.joint.v_index + 3) = Jr * rdot.segment<3>(b.joint.v_index + 3);
      }
      return v;
    };
    auto lagrangian = [&](const Eigen::VectorXd& r, const Eigen::VectorXd& rdot) {
      return kinetic(m, config(r), velocity(r, rdot)) - potential(m, config(r));
    };
    const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(n, n);
    // dL/drdot_a at (r, rdot); L is quadratic in rdot, so a unit central difference is exact.
    auto momentum = [&](const Eigen::VectorXd& r, int a) {
      return 0.5 * (lagrangian(r, v0 + I.col(a)) - lagrangian(r, v0 - I.col(a)));
    };
    const double h = 1e-4;
    Eigen::VectorXd expected(n);
    for (int a = 0; a < n; ++a) {
      const double dp_dt = (momentum(h * v0, a) - momentum(-h * v0, a)) / (2 * h);
      const double dL_dr = (lagrangian(h * I.col(a), v0) - lagrangian(-h * I.col(a), v0)) / (2 * h);
      expected[a] = dp_dt - dL_dr;
    }
    const Eigen::VectorXd C = bias(m, q0, v0);
    EXPECT_LT((C - expected).norm(), 1e-6 * (1 + C.norm())) << "C = " << C.transpose()
                                                             << "\nLagrange = " << expected.transpose();
  }
}

TEST_P(DynamicsTest, ForwardDynamicsSolvesTheEquationsOfMotion) {
  std::mt19937 rng(17);
  const Model m = GetParam().make(rng);
  ForwardDynamics fd(m);
  const Eigen::VectorXd q = testing::random_q(m, rng), v = testing::random_v(m, rng);
  const Eigen::VectorXd tau = testing::random_v(m, rng);
  Eigen::VectorXd vdot(m.nv);
  ASSERT_TRUE(fd.compute(m, q, v, tau, vdot));
  EXPECT_LT((testing::mass_matrix_at(m, q) * vdot + bias(m, q, v) - tau).norm(), 1e-10 * (1 + tau.norm()));
}

// Power balance: dK/dt equals the power of gravity along the motion when no joint forces act.
TEST_P(DynamicsTest, EnergyRateEqualsGravityPower) {
  std::mt19937 rng(19);
  const Model m = GetParam().make(rng);
  ForwardDynamics fd(m);
  const Eigen::VectorXd q = testing::random_q(m, rng), v = testing::random_v(m, rng);
  Eigen::VectorXd vdot(m.nv);
  ASSERT_TRUE(fd.compute(m, q, v, Eigen::VectorXd::Zero(m.nv), vdot));
  const double h = 1e-6;
  auto energy = [&](double dt) {
    return kinetic(m, integrate(m, q, v, dt), v + dt * vdot) + potential(m, integrate(m, q, v, dt));
  };
  EXPECT_NEAR((energy(h) - energy(-h)) / (2 * h), 0.0, 1e-6 * (1 + kinetic(m, q, v)));
}

INSTANTIATE_TEST_SUITE_P(Models, DynamicsTest,
                         ::testing::Values(Case{"chain5", [](std::mt19937& r) { return testing::chain_model(5, r); }},
                                           Case{"free_body", testing::free_body_model},
                                           Case{"planar_tree", testing::planar_model}),
                         [](const auto& info) { return info.param.name; });

TEST(Dynamics, GravityPotentialOfAPointMass) {
  const Model m = testing::single_body_model(JointType::planar, 2.0, Mat3::Identity() * 0.1, Vec3(0, -9.81, 0));
  Eigen::VectorXd q(3);
  q << 1.0, 3.0, 0.4;
  EXPECT_NEAR(potential(m, q), 2.0 * 9.81 * 3.0, 1e-12);
}

TEST(Dynamics, SingularMassMatrixIsReported) {
  // A point mass on the axis has no inertia about it.
  const Model m = testing::single_body_model(JointType::revolute, 1.0, Mat3::Zero(), Vec3(0, 0, -9.81));
  const MassMatrixCheck check = check_mass_matrix(m, Eigen::VectorXd::Zero(1));
  EXPECT_LT(check.conditioning, 1e-12);
  EXPECT_EQ(check.weakest, 0);
  ForwardDynamics fd(m);
  Eigen::VectorXd vdot(1);
  EXPECT_FALSE(fd.compute(m, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1), vdot));
}

// Trees side by side (a free body, a chain, a free body, and a point mass on a revolute axis):
// check_mass_matrix solves each tree's block of M alone, and must agree with the eigenproblem of
// the whole M (smallest over largest eigenvalue, and the entry of v the weakest direction is in).
TEST(Dynamics, MassMatrixCheckOfSeparateTreesAgreesWithTheWholeMatrix) {
  std::mt19937 rng(11);
  for (const bool massless : {false, true}) {
    Model m;
    std::vector<Model> trees = {testing::free_body_model(rng), testing::chain_model(3, rng), testing::free_body_model(rng)};
    if (massless) trees.push_back(testing::single_body_model(JointType::revolute, 1.0, Mat3::Zero(), Vec3::Zero()));
    for (const Model& tree : trees) {
      const int offset = static_cast<int>(m.bodies.size());
      for (Body b : tree.bodies) {
        b.name += '_';
        b.name += std::to_string(offset);
        if (b.parent >= 0) b.parent += offset;
        m.bodies.push_back(b);
      }
    }
    m.gravity = Vec3(0, 0, -9.81);
    finalize_model(m);
    ASSERT_EQ(mass_blocks(m).size(), trees.size());
    Eigen::VectorXd q = neutral_configuration(m);
    for (const Body& b : m.bodies)
      if (b.joint.type != JointType::free) q[b.joint.q_index] = 0.3;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> whole(testing::mass_matrix_at(m, q));
    const double conditioning = whole.eigenvalues().minCoeff() / whole.eigenvalues().maxCoeff();
    Eigen::Index weakest = 0;
    whole.eigenvectors().col(0).cwiseAbs().maxCoeff(&weakest);

    const MassMatrixCheck check = check_mass_matrix(m, q);
    EXPECT_EQ(check.weakest, weakest);
    if (massless) {
      EXPECT_LT(check.conditioning, 1e-12);
      EXPECT_EQ(check.weakest, m.nv - 1);  // the point mass's own axis
    } else {
      EXPECT_NEAR(check.conditioning, conditioning, 1e-12 * conditioning);
      EXPECT_GT(check.conditioning, 1e-6);
    }
  }
}

// A mass matrix that is not finite (an inertia that overflowed) is reported singular, naming an
// entry of v that exists, not passed as well conditioned.
TEST(Dynamics, ANonFiniteMassMatrixIsReportedSingular) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Model m = testing::single_body_model(JointType::revolute, 1.0, Mat3::Identity() * nan, Vec3(0, 0, -9.81));
  const MassMatrixCheck check = check_mass_matrix(m, Eigen::VectorXd::Zero(1));
  EXPECT_EQ(check.conditioning, 0.0);
  EXPECT_EQ(check.weakest, 0);
}

TEST(Dynamics, PlanarityIsDetected) {
  std::mt19937 rng(3);
  EXPECT_TRUE(testing::planar_model(rng).planar);
  EXPECT_FALSE(testing::free_body_model(rng).planar);
  Model m = testing::planar_model(rng);
  m.bodies[1].joint.axis = Vec3(1, 0, 0);  // a pendulum swinging out of the plane
  finalize_model(m);
  EXPECT_FALSE(m.planar);
}

}  // namespace
}  // namespace impactsim
