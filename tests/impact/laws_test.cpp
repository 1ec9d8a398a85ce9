// Laws by name, with their settings.
#include <gtest/gtest.h>

#include "impact/laws.hpp"
#include "tests/impact/contact_spaces.hpp"

namespace impactsim {
namespace {

TEST(Laws, EveryNameMakesItsLaw) {
  for (const std::string& name : law_names()) {
    const auto law = make_law(name);
    ASSERT_NE(law, nullptr) << name;
    EXPECT_EQ(law->name(), name);
  }
  EXPECT_EQ(make_law("newton"), nullptr);
}

TEST(Laws, SettingsReachTheLaw) {
  // Routh with one step of h = 0.01 N s cannot stop the block's 0.44 N s: the sample says so.
  LawSettings s;
  s.of("routh").set("h", 0.01);
  s.of("routh").set("steps", 1L);
  const auto law = make_law("routh", s);
  Rng rng(3);
  const ImpactResult r = law->resolve(testing::rocking_block(), testing::rocking_block_drop(), rng);
  EXPECT_FALSE(r.terminated);
  EXPECT_EQ(r.steps, 1);
  EXPECT_NEAR(r.impulse_n.sum(), 0.0, 0.02 + 1e-12);  // at most h per contact
  // Sequential in a listed order: B first.
  s.of("sequential").set("order", std::string("list"));
  s.of("sequential").set("list", std::vector<int>{1, 0});
  const ImpactResult q = make_law("sequential", s)->resolve(testing::rocking_block(), testing::rocking_block_drop(), rng);
  ASSERT_FALSE(q.ordering.empty());
  EXPECT_EQ(q.ordering.front(), 1);
}

}  // namespace
}  // namespace impactsim
