// The law interface: a prepared impact draws what resolve draws, sample(i) replays by index,
// contact_subspace keeps the contacts it is given (contact_rows without M), and every law gives the same outcome whether M
// is factored whole or block by block.
#include <gtest/gtest.h>

#include <random>

#include "impact/anitescu_potra.hpp"
#include "impact/laws.hpp"
#include "tests/impact/contact_spaces.hpp"

namespace impactsim {
namespace {

TEST(ImpactLaw, PreparedDrawsEqualResolveForEveryLaw) {
  const ContactSpace c = testing::rocking_block();
  const Eigen::Vector3d v(0.05, -0.44, 0.1);
  LawSettings settings;
  settings.of("routh").set("h", 0.1);
  settings.of("sequential").set("order", std::string("random"));
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

TEST(ImpactLaw, ContactRowsAreTheSubspaceWithoutM) {
  ContactSpace c = testing::ball_chain(4, 0.5);
  c.mu << 0.1, 0.2, 0.3;
  const ContactSpace rows = contact_rows(c, {1}), sub = contact_subspace(c, {1});
  EXPECT_EQ(rows.M.size(), 0);
  EXPECT_EQ(rows.J_n, sub.J_n);
  EXPECT_EQ(rows.J_t, sub.J_t);
  EXPECT_EQ(rows.mu, sub.mu);
  // With M's factor beside it, the single contact's impact is the subspace's to the bit.
  const MassFactor M_llt = mass_factor(c);
  const Eigen::VectorXd v = -Eigen::VectorXd::LinSpaced(c.J_n.cols(), 0.1, 0.4);
  const ImpactResult a = solve_anitescu_potra(rows, M_llt, v, {}, false);
  const ImpactResult b = solve_anitescu_potra(sub, M_llt, v, {}, false);
  ASSERT_TRUE(a.ok);
  EXPECT_GT(a.impulse_n[0], 0.0);
  EXPECT_EQ(a.v_plus, b.v_plus);
  EXPECT_EQ(a.impulse_n, b.impulse_n);
}

TEST(ImpactLaw, EveryLawGivesTheSameOutcomeWithMFactoredBlockByBlock) {
  std::mt19937 rng(17);
  LawSettings settings;
  settings.of("sequential").set("order", std::string("random"));
  for (int trial = 0; trial < 3; ++trial) {
    ContactSpace whole = testing::pile_of_blocks(rng);
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
