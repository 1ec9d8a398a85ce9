// The impact a scene describes: at its initial state when it touches and approaches there, else its
// first impact, reached by simulating until then.
#include <gtest/gtest.h>

#include <cmath>

#include "core/first_impact.hpp"
#include "impact/laws.hpp"
#include "scenes/scene.hpp"

namespace impactsim {
namespace {

Scene shipped(const std::string& name) { return load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/" + name + ".yaml"); }

TEST(FirstImpact, TheBallsFirstBounceIsFoundByFallingToIt) {
  const Scene s = shipped("bouncing_ball");
  ImpactState impact;
  ASSERT_TRUE(find_first_impact(s.system, *make_law("anitescu-potra"), s.initial, impact));
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
  ASSERT_TRUE(find_first_impact(s.system, *make_law("anitescu-potra"), s.initial, impact));
  EXPECT_EQ(impact.t, 0.0);
  EXPECT_EQ(impact.space.contacts(), 2);
  EXPECT_EQ(impact.v_minus, s.initial.v);
  // Separating instead: no impact at that state.
  ContactSpace space;
  EXPECT_FALSE(impact_at(s.system, s.initial.q, -s.initial.v, space));
}

TEST(FirstImpact, NoContactNoImpact) {
  const Scene s = shipped("double_pendulum");
  ImpactState impact;
  EXPECT_FALSE(find_first_impact(s.system, *make_law("anitescu-potra"), s.initial, impact));
}

}  // namespace
}  // namespace impactsim
