// The propagative law against Seghete and Murphey's examples and its invariants.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "impact/propagative.hpp"
#include "tests/impact/contact_spaces.hpp"

namespace impactsim {
namespace {

PropagativeSettings with_R(double R) {
  PropagativeSettings s;
  s.R = R;
  return s;
}

// Example 1: the striker's momentum passes down the chain, (v, 0, 0) -> (0, 0, v), energy exact.
TEST(Propagative, NewtonsCradle) {
  Rng rng(1);
  const double v = 2.5;
  const ImpactResult r = PropagativeLaw(with_R(1)).resolve(testing::ball_chain(3, 1), Eigen::Vector3d(v, 0, 0), rng);
  ASSERT_TRUE(r.ok);
  EXPECT_LT((r.v_plus - Eigen::Vector3d(0, 0, v)).norm(), 1e-12);
  EXPECT_NEAR(r.kinetic_energy_plus, r.kinetic_energy_minus, 1e-12 * r.kinetic_energy_minus);
  EXPECT_EQ(r.ordering, (std::vector<int>{0, 1}));  // two reflections, not three (Seghete and Murphey §III, Example 1)
}

// An equal-mass chain's reflections generate the symmetric group: every ordering sorts the
// velocities ascending, left to right (an extension of Seghete and Murphey's §V).
TEST(Propagative, EqualBallChainSortsTheVelocities) {
  Rng rng(2);
  std::normal_distribution<double> g;
  for (int trial = 0; trial < 100; ++trial) {
    Eigen::VectorXd v(5);
    for (int i = 0; i < 5; ++i) v[i] = g(rng);
    PropagativeSettings s = with_R(1);
    s.order = trial % 2 ? PropagativeSettings::Order::random : PropagativeSettings::Order::most_violated;
    const ImpactResult r = PropagativeLaw(s).resolve(testing::ball_chain(5, 1), v, rng);
    std::vector<double> sorted(v.data(), v.data() + 5);
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < 5; ++i) EXPECT_NEAR(r.v_plus[i], sorted[i], 1e-12) << trial;
    EXPECT_LE(r.steps, 10);  // at most N (N - 1) / 2
  }
}

// Invariants on random two- and three-contact impacts: elastic keeps energy, no contact approaches
// afterwards, impulses push; plastic dissipates; the blend loses (1 - R^2) of the plastic loss.
TEST(Propagative, InvariantsOnRandomImpacts) {
  Rng rng(3);
  std::normal_distribution<double> g;
  for (int trial = 0; trial < 300; ++trial) {
    const int nv = 4, m = 2 + trial % 2;
    ContactSpace c;
    Eigen::MatrixXd A(nv, nv);
    for (int i = 0; i < nv * nv; ++i) A.data()[i] = g(rng);
    c.M = A * A.transpose() + Eigen::MatrixXd::Identity(nv, nv);
    c.J_n.resize(m, nv);
    for (int i = 0; i < m * nv; ++i) c.J_n.data()[i] = g(rng);
    c.J_t = Eigen::MatrixXd::Zero(m, nv);
    c.mu = Eigen::VectorXd::Zero(m);
    c.e = Eigen::VectorXd::Zero(m);
    Eigen::VectorXd v(nv);
    for (int i = 0; i < nv; ++i) v[i] = g(rng);
    const ImpactResult e = PropagativeLaw(with_R(1)).resolve(c, v, rng);
    const ImpactResult p = PropagativeLaw(with_R(0)).resolve(c, v, rng);
    const ImpactResult b = PropagativeLaw(with_R(0.6)).resolve(c, v, rng);
    const double scale = 1 + v.norm();
    if (e.terminated) {
      EXPECT_NEAR(e.kinetic_energy_plus, e.kinetic_energy_minus, 1e-10 * e.kinetic_energy_minus) << trial;
      EXPECT_GE((c.J_n * e.v_plus).minCoeff(), -1e-9 * scale) << trial;
      EXPECT_GE(e.impulse_n.minCoeff(), 0.0);
    }
    EXPECT_GE((c.J_n * p.v_plus).minCoeff(), -1e-9 * scale);
    EXPECT_LE(p.kinetic_energy_plus, p.kinetic_energy_minus * (1 + 1e-12));
    EXPECT_GE(p.impulse_n.minCoeff(), 0.0);
    if (e.terminated && (p.impulse_n.array() > 0).all()) {
      const double plastic_loss = p.kinetic_energy_minus - p.kinetic_energy_plus;
      EXPECT_NEAR(b.kinetic_energy_minus - b.kinetic_energy_plus, (1 - 0.36) * plastic_loss, 1e-9 * scale) << trial;
    }
  }
}

// Nearly opposing normals (a ball pinched between converging walls) need many reflections; two
// contacts are capped at ceil(pi / gamma) + 1 (Theorem 1) and always finish within it.
TEST(Propagative, TwoContactsFinishWithinTheTheoremsBound) {
  ContactSpace c;
  c.M = Eigen::Matrix2d::Identity();
  const double a = 0.05;  // walls 0.05 rad from antiparallel
  c.J_n.resize(2, 2);
  c.J_n << std::cos(a), std::sin(a), -std::cos(a), std::sin(a);
  c.J_t = Eigen::MatrixXd::Zero(2, 2);
  c.mu = Eigen::Vector2d::Zero();
  c.e = Eigen::Vector2d::Ones();
  Rng rng(1);
  const ImpactResult r = PropagativeLaw(with_R(1)).resolve(c, Eigen::Vector2d(0, -1), rng);
  EXPECT_TRUE(r.terminated);
  EXPECT_GT(r.steps, 10);
  EXPECT_GE((c.J_n * r.v_plus).minCoeff(), -1e-12);
  EXPECT_NEAR(r.kinetic_energy_plus, 0.5, 1e-12);
}

}  // namespace
}  // namespace impactsim
