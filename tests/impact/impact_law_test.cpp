// The law interface: a prepared impact draws what resolve draws, sample(i) replays by index,
// contact_subspace keeps the contacts it is given, and every law gives the same outcome whether M
// is factored whole or block by block.
#include <gtest/gtest.h>

#include <random>

#include "impact/laws.hpp"
#include "tests/impact/contact_spaces.hpp"

namespace impactsim {
namespace {

TEST(ImpactLaw, PreparedDrawsEqualResolveForEveryLaw) {
  const ContactSpace c = testing::rocking_block();
  const Eigen::Vector3d v(0.05, -0.44, 0.1);
  LawSettings settings;
  settings.routh.h = 0.1;
  settings.sequential.order = SequentialSettings::Order::random;
  for (const std::string& name : law_names()) {
    const auto law = make_law(name, settings);
    const std::unique_ptr<PreparedImpact> prepared = law->prepare(c, v);
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      Rng a(seed), b(seed);
      const ImpactResult direct = law->resolve(c, v, a), drawn = prepared->draw(b);
      EXPECT_EQ(direct.v_plus, drawn.v_plus) << name;
      EXPECT_EQ(direct.impulse_n, drawn.impulse_n) << name;
      EXPECT_EQ(direct.ordering, drawn.ordering) << name;
      // One prepared impact serves many draws, each from its own generator.
      Rng again(seed);
      EXPECT_EQ(prepared->sample(seed, again).v_plus, direct.v_plus) << name;
    }
  }
}

TEST(ImpactLaw, SubspaceKeepsTheChosenContactsInOrder) {
  ContactSpace c = testing::ball_chain(4, 0.5);
  c.ids = {10, 11, 12};
  c.mu << 0.1, 0.2, 0.3;
  const ContactSpace s = contact_subspace(c, {2, 0});
  ASSERT_EQ(s.contacts(), 2);
  EXPECT_EQ(s.J_n.row(0), c.J_n.row(2));
  EXPECT_EQ(s.J_n.row(1), c.J_n.row(0));
  EXPECT_EQ(s.J_t.row(0), c.J_t.row(2));
  EXPECT_EQ(s.mu, Eigen::Vector2d(0.3, 0.1));
  EXPECT_EQ(s.e, Eigen::Vector2d(0.5, 0.5));
  EXPECT_EQ(s.ids, (std::vector<int>{12, 10}));
  EXPECT_EQ(s.M, c.M);
  EXPECT_TRUE(s.M_blocks.empty());
  c.M_blocks = {{0, 2}, {2, 2}};
  EXPECT_EQ(contact_subspace(c, {1}).M_blocks.size(), 2u);
}

// Twelve free bodies in 3-D (72 velocities, M block diagonal with a random 6 x 6 inertia each) and
// ten frictional contacts between neighbours or with the ground, approaching.
ContactSpace pile_of_blocks(std::mt19937& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  const int bodies = 12, nv = 6 * bodies, m = 10;
  ContactSpace c;
  c.tangent_dim = 2;
  c.M = Eigen::MatrixXd::Zero(nv, nv);
  for (int b = 0; b < bodies; ++b) {
    Eigen::MatrixXd A(6, 6);
    for (int k = 0; k < 36; ++k) A(k) = normal(rng);
    c.M.block(6 * b, 6 * b, 6, 6) = A * A.transpose() + Eigen::MatrixXd::Identity(6, 6);
  }
  c.J_n = Eigen::MatrixXd::Zero(m, nv);
  c.J_t = Eigen::MatrixXd::Zero(2 * m, nv);
  for (int i = 0; i < m; ++i) {
    const int a = i, b = i % 3 == 0 ? -1 : i + 1;  // every third against the ground
    for (int k = 0; k < 6; ++k)
      for (int row = 0; row < 3; ++row) {
        const double x = normal(rng), y = normal(rng);
        (row == 0 ? c.J_n(i, 6 * a + k) : c.J_t(2 * i + row - 1, 6 * a + k)) = x;
        if (b >= 0) (row == 0 ? c.J_n(i, 6 * b + k) : c.J_t(2 * i + row - 1, 6 * b + k)) = -y;
      }
  }
  c.mu = Eigen::VectorXd::Constant(m, 0.4);
  c.e = Eigen::VectorXd::Constant(m, 0.3);
  return c;
}

TEST(ImpactLaw, EveryLawGivesTheSameOutcomeWithMFactoredBlockByBlock) {
  std::mt19937 rng(17);
  LawSettings settings;
  settings.sequential.order = SequentialSettings::Order::random;
  for (int trial = 0; trial < 3; ++trial) {
    ContactSpace whole = pile_of_blocks(rng);
    const Eigen::VectorXd v = -0.1 * whole.M.llt().solve(whole.J_n.transpose() * Eigen::VectorXd::Ones(whole.contacts()));
    ContactSpace blocks = whole;
    for (int b = 0; b < 12; ++b) blocks.M_blocks.push_back({6 * b, 6});
    for (const std::string& name : law_names()) {
      const auto law = make_law(name, settings);
      Rng a(trial), b(trial);
      const ImpactResult dense = law->resolve(whole, v, a), blocked = law->resolve(blocks, v, b);
      ASSERT_EQ(dense.ok, blocked.ok) << name;
      EXPECT_GT(dense.impulse_n.maxCoeff(), 0.0) << name;  // the impact does something
      EXPECT_LT((dense.v_plus - blocked.v_plus).norm(), 1e-9 * (1 + v.norm())) << name;
      EXPECT_LT((dense.impulse_n - blocked.impulse_n).norm(), 1e-9 * (1 + dense.impulse_n.norm())) << name;
      EXPECT_NEAR(dense.kinetic_energy_plus, blocked.kinetic_energy_plus, 1e-9 * dense.kinetic_energy_minus) << name;
    }
  }
}

}  // namespace
}  // namespace impactsim
