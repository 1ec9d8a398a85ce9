// One Gavrea-Anitescu-Potra velocity step against closed forms (a sliding point mass, a pinned
// one) and the dissipation identity y^T J^T f <= 0 on random problems.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "numerics/mass_factor.hpp"
#include "core/velocity_step.hpp"

namespace impactsim {
namespace {

// A unit planar point mass on the ground: normal +y, tangent +x.
ContactSpace point_on_ground(double mu) {
  ContactSpace c;
  c.M = Eigen::Matrix2d::Identity();
  c.J_n = Eigen::RowVector2d(0, 1);
  c.J_t = Eigen::RowVector2d(1, 0);
  c.mu = Eigen::VectorXd::Constant(1, mu);
  c.e = Eigen::VectorXd::Zero(1);
  return c;
}

TEST(VelocityStep, SlidingPointMassLosesMuGHOfItsSpeed) {
  const double g = 9.81, h = 0.01, mu = 0.5;
  const Eigen::Vector2d v(1, 0), b = v + h * Eigen::Vector2d(0, -g);  // b = M v^l + h k
  const VelocityStep s = solve_velocity_step(point_on_ground(mu), Eigen::MatrixXd(0, 2), b);
  ASSERT_TRUE(s.ok) << s.diagnostic;
  EXPECT_NEAR(s.y(1), 0.0, 1e-12);             // stays on the ground
  EXPECT_NEAR(s.c_n(0), g * h, 1e-12);         // the normal impulse holds gravity
  EXPECT_NEAR(s.c_t(0), -mu * g * h, 1e-12);   // friction on the cone's edge, against the slip
  EXPECT_NEAR(s.y(0), 1 - mu * g * h, 1e-12);
}

TEST(VelocityStep, FrictionlessContactsCarryNoFrictionVariables) {
  // Two point masses on the ground, the first frictionless: its LCP is its normal row alone, the
  // second's is a normal row and a friction block (2 polygon directions and gamma in the plane).
  ContactSpace c;
  c.M = Eigen::Matrix4d::Identity();
  c.J_n = Eigen::MatrixXd::Zero(2, 4);
  c.J_t = Eigen::MatrixXd::Zero(2, 4);
  c.J_n(0, 1) = c.J_n(1, 3) = 1;
  c.J_t(0, 0) = c.J_t(1, 2) = 1;
  c.mu = Eigen::Vector2d(0.0, 0.5);
  c.e = Eigen::Vector2d::Zero();
  const double g = 9.81, h = 0.01;
  const Eigen::Vector4d b(1, -g * h, 1, -g * h);  // both sliding at 1 m/s
  const VelocityStep s = solve_velocity_step(c, Eigen::MatrixXd(0, 4), b);
  ASSERT_TRUE(s.ok) << s.diagnostic;
  EXPECT_EQ(s.lcp_variables, 2 + 2 + 1);
  EXPECT_NEAR(s.c_n(0), g * h, 1e-12);
  EXPECT_NEAR(s.c_n(1), g * h, 1e-12);
  EXPECT_EQ(s.c_t(0), 0.0);                      // frictionless: slides on at 1 m/s
  EXPECT_NEAR(s.y(0), 1.0, 1e-12);
  EXPECT_NEAR(s.c_t(1), -0.5 * g * h, 1e-12);   // the second as SlidingPointMass...
  EXPECT_NEAR(s.y(2), 1 - 0.5 * g * h, 1e-12);
}

TEST(VelocityStep, PinImpulseHoldsTheJoint) {
  // A frictionless contact and a pin on x: y = 0, c_n = 0.1, and M y - nu^T c_nu - J_n^T c_n = b.
  const Eigen::Vector2d b(2, -0.1);
  const Eigen::MatrixXd nu = Eigen::RowVector2d(1, 0);
  const VelocityStep s = solve_velocity_step(point_on_ground(0.0), nu, b);
  ASSERT_TRUE(s.ok) << s.diagnostic;
  EXPECT_LT(s.y.norm(), 1e-12);
  EXPECT_NEAR(s.c_n(0), 0.1, 1e-12);
  ASSERT_EQ(s.c_nu.size(), 1);
  EXPECT_NEAR(s.c_nu(0), -2.0, 1e-12);
}

TEST(VelocityStep, DependentJointsAreRefused) {
  Eigen::MatrixXd nu(2, 2);
  nu << 1, 0, 2, 0;
  const VelocityStep s = solve_velocity_step(point_on_ground(0.5), nu, Eigen::Vector2d(1, -1));
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.diagnostic.find("dependent"), std::string::npos) << s.diagnostic;
}

TEST(VelocityStep, ContactImpulsesNeverDoPositiveWork) {
  std::mt19937 gen(4);
  std::normal_distribution<double> n;
  for (int trial = 0; trial < 200; ++trial) {
    const int nv = 4, m = 2;
    Eigen::MatrixXd L = Eigen::MatrixXd::Random(nv, nv);
    ContactSpace c;
    c.M = L * L.transpose() + Eigen::MatrixXd::Identity(nv, nv);
    c.J_n = Eigen::MatrixXd::Random(m, nv);
    c.J_t = Eigen::MatrixXd::Random(2 * m, nv);
    c.tangent_dim = 2;
    c.mu = Eigen::Vector2d(0.2 + 0.5 * std::abs(n(gen)), 0.3);
    c.e = Eigen::Vector2d::Zero();
    Eigen::VectorXd b(nv);
    for (int i = 0; i < nv; ++i) b(i) = n(gen);
    const VelocityStep s = solve_velocity_step(c, Eigen::MatrixXd(0, nv), b);
    ASSERT_TRUE(s.ok) << s.diagnostic;
    EXPECT_LT(s.residual, 1e-9);
    EXPECT_GE((c.J_n * s.y).minCoeff(), -1e-9);  // no approach after the step
    const Eigen::VectorXd work = s.y.transpose() * (c.J_n.transpose() * s.c_n + c.J_t.transpose() * s.c_t);
    EXPECT_LE(work(0), 1e-9) << trial;
  }
}

// Twelve bodies of 6 velocities each (nv = 72, from kBlockwiseFrom on): W = J M^-1 J^T is formed
// block by block. Each contact's rows touch one body (on the ground) or two (neighbours in a row).
Eigen::MatrixXd normal_matrix(std::mt19937& gen, int rows, int cols) {
  std::normal_distribution<double> n;
  Eigen::MatrixXd A(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) A(i, j) = n(gen);
  return A;
}

ContactSpace row_of_blocks(std::mt19937& gen, double mu) {
  const int bodies = 12, nv = 6 * bodies, m = 2 * bodies - 1;
  auto random = [&](int rows, int cols) { return normal_matrix(gen, rows, cols); };
  ContactSpace c;
  c.M = Eigen::MatrixXd::Zero(nv, nv);
  for (int b = 0; b < bodies; ++b) {
    const Eigen::MatrixXd L = random(6, 6);
    c.M.block(6 * b, 6 * b, 6, 6) = L * L.transpose() + Eigen::MatrixXd::Identity(6, 6);
    c.M_blocks.push_back({6 * b, 6});
  }
  c.tangent_dim = 2;
  c.J_n = Eigen::MatrixXd::Zero(m, nv);
  c.J_t = Eigen::MatrixXd::Zero(2 * m, nv);
  for (int k = 0; k < m; ++k) {
    const int a = k / 2, other = k % 2 ? a + 1 : -1;  // even: body a on the ground; odd: a against a + 1
    for (int body : {a, other}) {
      if (body < 0) continue;
      c.J_n.block(k, 6 * body, 1, 6) = random(1, 6);
      c.J_t.block(2 * k, 6 * body, 2, 6) = random(2, 6);
    }
  }
  c.mu = Eigen::VectorXd::Constant(m, mu);
  c.e = Eigen::VectorXd::Zero(m);
  return c;
}

// Frictionless, the step is y = M^-1 (b + J_n^T z) with z the LCP (J_n M^-1 J_n^T, J_n M^-1 b)'s
// solution, unique here (23 random rows in 72 velocities): the blockwise W and the skipped
// identity friction transform must give the dense product's answer.
TEST(VelocityStep, BlockwiseDelassusMatchesTheDenseProduct) {
  std::mt19937 gen(11);
  for (int trial = 0; trial < 20; ++trial) {
    const ContactSpace c = row_of_blocks(gen, 0.0);
    const int nv = static_cast<int>(c.M.rows());
    ASSERT_GE(nv, kBlockwiseFrom);
    const Eigen::VectorXd b = normal_matrix(gen, nv, 1);
    const VelocityStep s = solve_velocity_step(c, Eigen::MatrixXd(0, nv), b);
    ASSERT_TRUE(s.ok) << s.diagnostic;
    EXPECT_EQ(s.lcp_variables, c.contacts());
    const Eigen::LLT<Eigen::MatrixXd> llt(c.M);
    const Eigen::MatrixXd Minv_JT = llt.solve(c.J_n.transpose());
    const LcpSolution z = solve_lemke(c.J_n * Minv_JT, c.J_n * llt.solve(b));
    ASSERT_TRUE(z.ok());
    const Eigen::VectorXd y = llt.solve(b) + Minv_JT * z.z;
    EXPECT_LT((s.y - y).norm(), 1e-10 * (1 + y.norm())) << trial;
    EXPECT_LT((s.c_n - z.z).norm(), 1e-10 * (1 + z.z.norm())) << trial;
  }
}

// A large frictionless step is solved first at a guessed support (the contacts `pressed`); any
// guess, right, empty, every contact or a random one, must end at Lemke's step. With each contact
// doubled (W singular, z not unique) the velocity and J_n^T z still must: every solution of a PSD
// LCP has the same W z.
TEST(VelocityStep, AnyGuessedSupportEndsAtLemkesStep) {
  std::mt19937 gen(13);
  for (int trial = 0; trial < 20; ++trial) {
    ContactSpace c = row_of_blocks(gen, 0.0);
    const bool doubled = trial % 2 == 1;
    if (doubled) {
      const Eigen::MatrixXd J_n = c.J_n, J_t = c.J_t;
      c.J_n.resize(2 * J_n.rows(), J_n.cols());
      c.J_n << J_n, J_n;
      c.J_t.resize(2 * J_t.rows(), J_t.cols());
      c.J_t << J_t, J_t;
      c.mu = Eigen::VectorXd::Zero(c.J_n.rows());
      c.e = Eigen::VectorXd::Zero(c.J_n.rows());
    }
    const int nv = static_cast<int>(c.M.rows()), m = c.contacts();
    const Eigen::VectorXd b = normal_matrix(gen, nv, 1);
    const Eigen::LLT<Eigen::MatrixXd> llt(c.M);
    const Eigen::MatrixXd Minv_JT = llt.solve(c.J_n.transpose());
    const LcpSolution z = solve_lemke(c.J_n * Minv_JT, c.J_n * llt.solve(b));
    ASSERT_TRUE(z.ok());
    const Eigen::VectorXd y = llt.solve(b) + Minv_JT * z.z;
    std::vector<int> right, all, random;
    for (int i = 0; i < m; ++i) {
      if (z.z[i] > 0) right.push_back(i);
      all.push_back(i);
      if (gen() % 2) random.push_back(i);
    }
    const std::vector<int> none;
    const std::array<const std::vector<int>*, 5> guesses{&right, &none, &all, &random, nullptr};
    for (const std::vector<int>* pressed : guesses) {
      const VelocityStep s = solve_velocity_step(c, Eigen::MatrixXd(0, nv), b, {}, pressed);
      ASSERT_TRUE(s.ok) << s.diagnostic;
      EXPECT_LT(s.residual, 1e-9);
      EXPECT_GE(s.c_n.minCoeff(), 0.0);
      EXPECT_LT((s.y - y).norm(), 1e-9 * (1 + y.norm())) << trial;
      EXPECT_LT((c.J_n.transpose() * (s.c_n - z.z)).norm(), 1e-9 * (1 + z.z.norm())) << trial;
      if (!doubled) {
        EXPECT_LT((s.c_n - z.z).norm(), 1e-9 * (1 + z.z.norm())) << trial;
      }
      // The right support is solved at once, without Lemke.
      if (pressed == &right) {
        EXPECT_EQ(s.lcp_method, LcpSolution::Method::support) << trial;
      }
    }
  }
}

// With friction on the same blocks: a solution (residual), no approach, and impulses that do no
// positive work; the same of the answer solved in the circular cone directly, which stays in the
// circle and gives the refined polygon's contact velocities (23 random rows in 72 velocities).
TEST(VelocityStep, BlockwiseFrictionalStepDissipates) {
  std::mt19937 gen(12);
  for (int trial = 0; trial < 20; ++trial) {
    const ContactSpace c = row_of_blocks(gen, 0.4);
    const int nv = static_cast<int>(c.M.rows());
    const Eigen::VectorXd b = normal_matrix(gen, nv, 1);
    const VelocityStep s = solve_velocity_step(c, Eigen::MatrixXd(0, nv), b);
    const VelocityStep cone = solve_velocity_step_in_cone(c, b);
    ASSERT_TRUE(s.ok) << s.diagnostic;
    ASSERT_TRUE(cone.ok) << cone.diagnostic;
    EXPECT_LT(s.residual, 1e-9);
    for (const VelocityStep* x : {&s, &cone}) {
      EXPECT_GE((c.J_n * x->y).minCoeff(), -1e-9);
      EXPECT_LE(x->y.dot(c.J_n.transpose() * x->c_n + c.J_t.transpose() * x->c_t), 1e-9) << trial;
      EXPECT_LT((c.M * x->y - b - c.J_n.transpose() * x->c_n - c.J_t.transpose() * x->c_t).norm(), 1e-9 * (1 + b.norm()));
    }
    for (int i = 0; i < c.contacts(); ++i)
      EXPECT_LE(cone.c_t.segment<2>(2 * i).norm(), c.mu[i] * cone.c_n[i] * (1 + 1e-9) + 1e-12) << trial;
    EXPECT_LT((c.J_n * (cone.y - s.y)).norm(), 1e-7 * (1 + b.norm())) << trial;
    // A step's looser tolerance (1e-6 of the impulses): the residual it promises, no smaller than
    // the tight solve's (it stops sooner), and the same contact velocities to that order.
    const VelocityStep loose = solve_velocity_step_in_cone(c, b, 1e-6);
    ASSERT_TRUE(loose.ok) << loose.diagnostic;
    const double scale = 1.0 + cone.c_n.cwiseAbs().maxCoeff();
    EXPECT_LE(loose.residual, 1e-6 * scale);
    EXPECT_GE(loose.residual, cone.residual);
    EXPECT_LT((c.J_n * (loose.y - cone.y)).norm(), 1e-4 * (1 + b.norm())) << trial;
    EXPECT_GE((c.J_n * loose.y).minCoeff(), -1e-5);
  }
}

// Solved in the circular cone directly: a 3-D point mass sliding along (3, 4)/5 at 1 m/s loses
// mu g h of its speed along its slip, exactly (the circle's friction is -mu c_n u_t / |u_t|).
TEST(VelocityStep, InTheConeASlidingPointMassLosesMuGHAlongItsSlip) {
  ContactSpace c;
  c.M = Eigen::Matrix3d::Identity();
  c.J_n = Eigen::RowVector3d(0, 0, 1);
  c.J_t = Eigen::Matrix<double, 2, 3>{{1, 0, 0}, {0, 1, 0}};
  c.tangent_dim = 2;
  c.mu = Eigen::VectorXd::Constant(1, 0.5);
  c.e = Eigen::VectorXd::Zero(1);
  const double g = 9.81, h = 0.01;
  const Eigen::Vector3d b(0.6, 0.8, -g * h);
  const VelocityStep s = solve_velocity_step_in_cone(c, b);
  ASSERT_TRUE(s.ok) << s.diagnostic;
  EXPECT_EQ(s.lcp_variables, 0);
  EXPECT_NEAR(s.c_n(0), g * h, 1e-12);
  EXPECT_NEAR(s.y(2), 0.0, 1e-12);
  EXPECT_NEAR(s.y(0), 0.6 * (1 - 0.5 * g * h), 1e-12);
  EXPECT_NEAR(s.y(1), 0.8 * (1 - 0.5 * g * h), 1e-12);
}


}  // namespace
}  // namespace impactsim
