// The near set the event loop follows changes no bit of a run, whatever its horizon or margin.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <numbers>
#include <optional>

#include "app/sample_seed.hpp"
#include "core/contact_data.hpp"
#include "core/contact_forces.hpp"
#include "core/dynamics.hpp"
#include "core/system.hpp"
#include "core/hybrid.hpp"
#include "impact/laws.hpp"
#include "scenes/randomize.hpp"
#include "scenes/scene.hpp"
#include "tests/bench/pile_scene.hpp"
#include "tests/core/ball_row.hpp"
#include "tests/core/scene_run.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(Hybrid, BroadphaseMarginDoesNotChangeResults) {
  Scene wide = shipped("cube_toss");
  Scene narrow = wide;
  wide.system.contact.broadphase_margin = 1e9;
  narrow.system.contact.broadphase_margin = 0.0;
  const SceneRun a = simulate(std::move(wide)), b = simulate(std::move(narrow));
  ASSERT_EQ(a.events.size(), b.events.size());
  for (size_t k = 0; k < a.events.size(); ++k) {
    EXPECT_NEAR(a.events[k].t, b.events[k].t, 1e-9) << k;
    EXPECT_EQ(a.events[k].contacts, b.events[k].contacts) << k;
  }
  EXPECT_LT((a.q.back() - b.q.back()).norm(), 1e-6);
}

// The near set changes speed, never results (collision/broadphase.hpp): following every contact
// (broadphase_horizon 0), the default set, and one whose budgets are so small (1 um) that it grows
// at nearly every step, raises the budgets of moving bodies fourfold and again, and falls back to
// every contact, give the same rows, events and statistics to the bit. A pile of 30 boxes and
// spheres (25 land, 5 fall above them), the tumbling cube, and the walker, whose gated feet are
// always followed.
TEST(Hybrid, TheNearSetChangesNoBitOfARun) {
  std::vector<Scene> scenes{shipped("cube_toss"), shipped("compass_gait_walk"), load_scene_text(tilted_pile_scene(30), "pile")};
  for (const Scene& scene : scenes) {
    std::vector<SceneRun> runs;
    for (double horizon : {0.0, scene.system.contact.broadphase_horizon, 1e-6}) {
      Scene s = scene;
      s.system.contact.broadphase_horizon = horizon;
      runs.push_back(simulate(std::move(s)));
    }
    const SceneRun& all = runs[0];
    EXPECT_GT(all.stats.impacts, 3) << scene.name;
    for (size_t k = 1; k < runs.size(); ++k) {
      const SceneRun& r = runs[k];
      ASSERT_EQ(r.events.size(), all.events.size()) << scene.name << " " << k;
      for (size_t e = 0; e < r.events.size(); ++e) {
        EXPECT_EQ(r.events[e].t, all.events[e].t) << scene.name << " " << e;
        EXPECT_EQ(r.events[e].kind, all.events[e].kind) << scene.name << " " << e;
        EXPECT_EQ(r.events[e].contacts, all.events[e].contacts) << scene.name << " " << e;
        EXPECT_EQ(r.events[e].impulse_n, all.events[e].impulse_n) << scene.name << " " << e;
        EXPECT_EQ(r.events[e].kinetic_after, all.events[e].kinetic_after) << scene.name << " " << e;
      }
      ASSERT_EQ(r.t.size(), all.t.size()) << scene.name;
      for (size_t j = 0; j < r.t.size(); ++j) {
        EXPECT_EQ(r.q[j], all.q[j]) << scene.name << " row " << j;
        EXPECT_EQ(r.v[j], all.v[j]) << scene.name << " row " << j;
      }
      EXPECT_EQ(r.stats.min_phi, all.stats.min_phi) << scene.name;
      EXPECT_EQ(r.stats.steps, all.stats.steps) << scene.name;
      EXPECT_EQ(r.stats.evaluations, all.stats.evaluations) << scene.name;
    }
  }
}

// Every law works inside the event loop: the rocking block drop and the tilted block with each law
// keep the invariants (energy never rises at an impact, no penetration) and end at rest.
}  // namespace
}  // namespace impactsim
