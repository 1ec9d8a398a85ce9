#include "core/island_clocks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/hybrid.hpp"
#include "scenes/scene_overrides.hpp"
#include "tests/core/island_scenes.hpp"
#include "tests/core/scene_run.hpp"

namespace impactsim {
namespace {

using testing::island_body;
using testing::island_scene;
using testing::SceneRun;

// The events of a run that involve contacts named with `prefix` (a body's shape name), as
// (t, kind, contact names). A group's `rest` is the whole run's `sleep`; the whole run's `rest`
// (every group's contacts) is left out.
std::vector<std::tuple<double, EventKind, std::vector<std::string>>> events_of(const SceneRun& r, const std::string& prefix,
                                                                               bool alone) {
  std::vector<std::tuple<double, EventKind, std::vector<std::string>>> out;
  for (const Event& e : r.events) {
    std::vector<std::string> names;
    for (int c : e.contacts) names.push_back(r.scene.system.contacts.contact(c).name);
    if (names.empty() || names[0].rfind(prefix, 0) != 0 || (!alone && e.kind == EventKind::rest)) continue;
    out.emplace_back(e.t, e.kind == EventKind::rest ? EventKind::sleep : e.kind, names);
  }
  return out;
}

// Two tilted boxes a metre apart land and rock: their groups never meet, so each takes, to the
// bit, the events and the states it takes alone.
TEST(IslandClocks, GroupsThatNeverMeetRunAsTheyWouldAlone) {
  const std::string a = island_body("a", true, 0, 0, 0.09, 0.2);
  const std::string b = island_body("b", true, 1.0, 0.1, 0.12, 0, "[-6, 5, -20]");
  const SceneRun both = testing::simulate(load_scene_text(island_scene(a + b, 0.4), "both"));
  const SceneRun alone = testing::simulate(load_scene_text(island_scene(a, 0.4), "alone"));
  const auto together = events_of(both, "sa", false), by_itself = events_of(alone, "sa", true);
  ASSERT_GT(by_itself.size(), 5u);
  EXPECT_EQ(together, by_itself);
  ASSERT_EQ(both.q.size(), alone.q.size());
  for (size_t k = 0; k < both.q.size(); ++k) {
    EXPECT_EQ(both.q[k].head(7), alone.q[k]) << "row " << k;
    EXPECT_EQ(both.v[k].head(6), alone.v[k]) << "row " << k;
  }
  EXPECT_TRUE(both.around.empty()) << "no rows at events: the other group's state there is not computed";
}

// A sphere rolls into a box resting 0.3 m away: the groups join before they touch, the impact
// between them is found, and the run agrees with the plain loop's.
TEST(IslandClocks, BodiesThatMeetAreJoinedBeforeTheyTouch) {
  const std::string bodies = island_body("a", false, -0.3, 0, 0.05, 1.5, "[0, 0, 0]") +
                             island_body("b", true, 0.0, 0, 0.05, 0, "[0, 0, 0]") +
                             island_body("c", false, 2.0, 0, 0.05, 0, "[0, 0, 0]");
  const Scene scene = load_scene_text(island_scene(bodies, 0.5), "meet");
  ASSERT_TRUE(island_clocks_apply(scene.system));
  const SceneRun islands = testing::simulate(scene);
  const SceneRun plain = testing::simulate(load_scene_text(island_scene(bodies, 0.5), "meet", {parse_override("simulation.island_clocks=false")}));
  const auto hit = [](const SceneRun& r) {
    for (const Event& e : r.events)
      for (int c : e.contacts)
        if (is_impact(e.kind) && r.scene.system.contacts.body_b(c) >= 0) return e.t;
    return -1.0;
  };
  ASSERT_GT(hit(plain), 0.15);
  EXPECT_NEAR(hit(islands), hit(plain), 1e-6);
  testing::expect_invariants(islands);
  ASSERT_EQ(islands.q.size(), plain.q.size());
  EXPECT_LT((islands.q.back() - plain.q.back()).lpNorm<Eigen::Infinity>(), 1e-5);
  EXPECT_LT((islands.v.back() - plain.v.back()).lpNorm<Eigen::Infinity>(), 1e-4);
}

// A small pile of four bodies: every row whole and at its output time, events in time order, the
// energy never above the start's, and one `rest` once the last group rests (after its `sleep`).
TEST(IslandClocks, RowsAreWholeEventsInOrderAndTheRunRests) {
  const std::string bodies = island_body("a", true, -0.07, -0.07, 0.08) + island_body("b", false, 0.07, -0.07, 0.08) +
                             island_body("c", false, -0.07, 0.07, 0.08) + island_body("d", true, 0.07, 0.07, 0.08, 0, "[-5, 7, 30]");
  const SceneRun r = testing::simulate(load_scene_text(island_scene(bodies, 0.6), "pile"));
  ASSERT_EQ(r.t.size(), 61u);
  for (size_t k = 0; k < r.t.size(); ++k) {
    EXPECT_NEAR(r.t[k], 0.01 * k, 1e-12);
    EXPECT_TRUE(r.q[k].allFinite() && r.v[k].allFinite());
    EXPECT_LE(r.energy[k], r.energy[0] + 1e-9);
  }
  EXPECT_TRUE(std::is_sorted(r.events.begin(), r.events.end(), [](const Event& x, const Event& y) { return x.t < y.t; }));
  const long rests = std::count_if(r.events.begin(), r.events.end(), [](const Event& e) { return e.kind == EventKind::rest; });
  ASSERT_EQ(rests, 1);
  double last_sleep = 0.0;
  for (const Event& e : r.events)
    if (e.kind == EventKind::sleep) last_sleep = std::max(last_sleep, e.t);
  EXPECT_EQ(r.events.back().kind, EventKind::rest);
  EXPECT_EQ(r.events.back().t, last_sleep);
  testing::expect_invariants(r);
  EXPECT_EQ(r.stats.samples, 61);
  EXPECT_EQ(r.stats.events, static_cast<long>(r.events.size()));
}

}  // namespace
}  // namespace impactsim

namespace impactsim {
namespace {

// Four spheres dropped in a column: each group falls freely, reaches t_end in one step ahead of
// the others, and is still joined to the one below before they touch (its steps beyond the join
// are dropped). Every impact lands where the plain loop puts it.
TEST(IslandClocks, GroupsAheadOfTheOthersAreStillJoined) {
  const SceneRun plain = testing::run("sphere_stack");
  SceneRun clocks = testing::simulate(
      load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/sphere_stack.yaml", {parse_override("simulation.island_clocks=true")}));
  const auto impacts = [](const SceneRun& r) {
    std::vector<double> t;
    for (const Event& e : r.events)
      if (is_impact(e.kind)) t.push_back(e.t);
    return t;
  };
  ASSERT_EQ(impacts(plain).size(), 4u);
  ASSERT_EQ(impacts(clocks).size(), 4u);
  for (size_t k = 0; k < 4; ++k) EXPECT_NEAR(impacts(clocks)[k], impacts(plain)[k], 1e-9) << k;
  EXPECT_LT((clocks.q.back() - plain.q.back()).lpNorm<Eigen::Infinity>(), 1e-9);
  EXPECT_EQ(clocks.events.back().kind, EventKind::rest);
}

}  // namespace
}  // namespace impactsim
