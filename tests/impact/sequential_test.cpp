// Sequential impacts on the rocking block (Halm and Posa §5.4.1, Fig. 9): one corner lifts at 0.0930 m/s.
#include <gtest/gtest.h>

#include "impact/sequential.hpp"
#include "tests/impact/contact_spaces.hpp"

namespace impactsim {
namespace {

using testing::rocking_block;
using testing::rocking_block_drop;

TEST(Sequential, RockingBlockCyclicFromALiftsA) {
  SequentialSettings s;
  s.start = 0;
  Rng rng(1);
  const ImpactResult r = SequentialLaw(s).resolve(rocking_block(), rocking_block_drop(), rng);
  ASSERT_TRUE(r.ok) << r.diagnostic;
  const Eigen::Vector2d vn = rocking_block().J_n * r.v_plus;
  // First impact at A pivots the block about A (|omega| = 0.13289); the second at B pivots it about
  // B with 0.7 of that, lifting A at 0.0930 m/s.
  EXPECT_NEAR(vn[0], 0.0930, 1e-4);
  EXPECT_NEAR(vn[1], 0.0, 1e-10);
  EXPECT_NEAR(std::abs(r.v_plus[2]), 0.0930, 1e-4);
  EXPECT_NEAR(r.kinetic_energy_plus, 0.007210, 1e-6);
  EXPECT_EQ(r.ordering, (std::vector<int>{0, 1}));
}

TEST(Sequential, RockingBlockCyclicFromBIsTheMirrorImage) {
  SequentialSettings a, b;
  b.start = 1;
  Rng rng(1);
  const ImpactResult ra = SequentialLaw(a).resolve(rocking_block(), rocking_block_drop(), rng);
  const ImpactResult rb = SequentialLaw(b).resolve(rocking_block(), rocking_block_drop(), rng);
  EXPECT_NEAR(ra.v_plus[0], -rb.v_plus[0], 1e-12);
  EXPECT_NEAR(ra.v_plus[1], rb.v_plus[1], 1e-12);
  EXPECT_NEAR(ra.v_plus[2], -rb.v_plus[2], 1e-12);
  EXPECT_EQ(rb.ordering, (std::vector<int>{1, 0}));
}

TEST(Sequential, ListOrderAndRandomOrder) {
  SequentialSettings list;
  list.order = SequentialSettings::Order::list;
  list.list = {1, 0};
  Rng rng(5);
  EXPECT_EQ(SequentialLaw(list).resolve(rocking_block(), rocking_block_drop(), rng).ordering, (std::vector<int>{1, 0}));
  SequentialSettings random;
  random.order = SequentialSettings::Order::random;
  int a_first = 0;
  for (int k = 0; k < 400; ++k) {
    const ImpactResult r = SequentialLaw(random).resolve(rocking_block(), rocking_block_drop(), rng);
    ASSERT_EQ(r.ordering.size(), 2u);
    a_first += r.ordering[0] == 0;
    EXPECT_NEAR((rocking_block().J_n * r.v_plus).maxCoeff(), 0.0930, 1e-4);
  }
  EXPECT_GT(a_first, 150);  // both orders occur, about evenly
  EXPECT_LT(a_first, 250);
}

// Past the cap the rest is resolved by one simultaneous impact: flagged, but finished, with no
// contact approaching and no energy gained.
TEST(Sequential, CapFlagsTheSampleAndFinishesSimultaneously) {
  SequentialSettings s;
  s.max_impacts = 1;
  Rng rng(1);
  const ImpactResult r = SequentialLaw(s).resolve(rocking_block(), rocking_block_drop(), rng);
  EXPECT_FALSE(r.terminated);
  EXPECT_TRUE(r.ok) << r.diagnostic;
  EXPECT_NE(r.diagnostic.find("after 1 single impacts"), std::string::npos);
  EXPECT_EQ(r.ordering.size(), 1u);
  EXPECT_GE((rocking_block().J_n * r.v_plus).minCoeff(), -1e-12);
  EXPECT_LE(r.kinetic_energy_plus, r.kinetic_energy_minus);
  EXPECT_GE(r.impulse_n.minCoeff(), 0.0);
}

// The default cap is the authors' 10 rounds: 10 single impacts per contact.
TEST(Sequential, DefaultCapIsTenPerContact) {
  SequentialSettings s;
  s.tolerance = 0;
  ContactSpace c = testing::ball_chain(3, 0.0);
  Rng rng(1);
  // Three balls in a row, the first two moving into the third: plastic single impacts pass the
  // motion on in geometrically shrinking steps and never exactly end under a tolerance of 0.
  const ImpactResult r = SequentialLaw(s).resolve(c, Eigen::Vector3d(1, 0.5, 0), rng);
  EXPECT_FALSE(r.terminated);
  EXPECT_EQ(r.ordering.size(), 20u);
  EXPECT_GE((c.J_n * r.v_plus).minCoeff(), -1e-12);
}

}  // namespace
}  // namespace impactsim
