// The impact a scene describes: at its initial state when it touches and approaches there, else its
// first impact, reached by simulating until then.
#include <gtest/gtest.h>

#include <cmath>

#include "core/first_impact.hpp"
#include "impact/laws.hpp"
#include "scenes/scene.hpp"
#include "tests/core/ball_row.hpp"

namespace impactsim {
namespace {

Scene shipped(const std::string& name) { return load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/" + name + ".yaml"); }

TEST(FirstImpact, TheBallsFirstBounceIsFoundByFallingToIt) {
  const Scene s = shipped("bouncing_ball");
  ImpactState impact;
  ASSERT_TRUE(find_first_impact(s.system, s.initial, impact));
  EXPECT_NEAR(impact.t, std::sqrt(2 / 9.81), 1e-10);
  EXPECT_NEAR(impact.v_minus(2), -std::sqrt(2 * 9.81), 1e-8);
  EXPECT_NEAR(impact.q(2), 0.1, 1e-9);
  ASSERT_EQ(impact.space.contacts(), 1);
  EXPECT_EQ(impact.space.ids, std::vector<int>{0});
  EXPECT_EQ(impact.space.e(0), 0.9);
}

TEST(FirstImpact, AnImpactAtTheInitialStateIsTakenThere) {
  // The rocking block touches the ground and approaches it from its first instant... once moved down.
  Scene s = shipped("rocking_block");
  s.initial.q(1) = 1.0;
  s.initial.v(1) = -0.4;
  ImpactState impact;
  ASSERT_TRUE(find_first_impact(s.system, s.initial, impact));
  EXPECT_EQ(impact.t, 0.0);
  EXPECT_EQ(impact.space.contacts(), 2);
  EXPECT_EQ(impact.v_minus, s.initial.v);
  // Separating instead: no impact at that state.
  ContactSpace space;
  EXPECT_FALSE(impact_at(s.system, 0.0, s.initial.q, -s.initial.v, space));
}

// box_wall with the box also rising at 1 cm/s: the floor corner A touches but separates when B hits
// the wall. The papers' impact set has every touching contact, so B's impulse can turn A round: the
// outcomes are the Routh set of the shipped scene (most samples at rest, the rest with A sliding and
// B leaving), not only what follows an impact at B alone.
TEST(FirstImpact, ATouchingContactThatSeparatesIsInTheImpactSet) {
  Scene s = shipped("box_wall");
  s.initial.v(1) = 0.01;
  ImpactState impact;
  ASSERT_TRUE(find_first_impact(s.system, s.initial, impact));
  EXPECT_EQ(impact.t, 0.0);
  ASSERT_EQ(impact.space.contacts(), 2);
  EXPECT_GT((impact.space.J_n * impact.v_minus)(0), 0.005);  // A separates
  const auto prepared = make_law("routh", s.laws)->prepare(impact.space, impact.v_minus);
  Rng rng(3);
  int rest = 0;
  const int n = 400;
  for (int k = 0; k < n; ++k) rest += prepared->draw(rng).v_plus.norm() < 1e-9;
  EXPECT_GT(rest, 0.7 * n);  // the shipped scene: 84 % at rest
  EXPECT_LT(rest, 0.95 * n);
  // At B alone the impact could not stop the box: A, lifting, takes no impulse.
  ContactSpace b_only = contact_subspace(impact.space, {1});
  EXPECT_GT(make_law("anitescu-potra")->resolve(b_only, impact.v_minus, rng).v_plus.norm(), 0.01);
}

// Five balls at rest in a touching row, a cue ball rolling in at 2 m/s from 0.1 m away. The
// unloaded ball-ball contacts once logged lift-offs on their rounding noise (15 per second), and the
// first of them was taken for the first impact ("no impact happens").
TEST(FirstImpact, RestingNeighboursDoNotHideTheFirstImpact) {
  const Scene s = load_scene_text(testing::ball_row_scene(1.0), "ball_row.yaml");
  ImpactState impact;
  ASSERT_TRUE(find_first_impact(s.system, s.initial, impact));
  EXPECT_NEAR(impact.t, 0.05, 1e-10);
  EXPECT_NEAR(impact.v_minus(0), 2.0, 1e-9);
  EXPECT_EQ(impact.space.contacts(), 11);  // 6 on the ground, 5 between neighbours
}

TEST(FirstImpact, NoContactNoImpact) {
  const Scene s = shipped("double_pendulum");
  ImpactState impact;
  EXPECT_FALSE(find_first_impact(s.system, s.initial, impact));
}

}  // namespace
}  // namespace impactsim
