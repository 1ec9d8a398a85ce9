#include "core/loop_stages.hpp"

#include <gtest/gtest.h>

#include "scenes/scene.hpp"
#include "tests/core/island_scenes.hpp"

namespace impactsim {
namespace {

TEST(LoopStages, TheEventLogCountsAndStopsPastTheBudget) {
  Scene scene = load_scene_text(testing::island_scene(testing::island_body("a", false, 0, 0, 0.05) +
                                                          testing::island_body("b", false, 0.5, 0, 0.05),
                                                      1.0),
                                "log");
  scene.system.contact.max_events = 3;
  LoopData d(scene.system);
  std::vector<EventKind> seen;
  RunCallbacks cb;
  cb.event = [&](const Event& e) { seen.push_back(e.kind); };
  const EventLog log = event_log(scene.system, d, cb);
  log({.t = 0.1, .kind = EventKind::impact});
  log({.t = 0.2, .kind = EventKind::zeno});
  log({.t = 0.3, .kind = EventKind::liftoff});
  EXPECT_EQ(d.stats.events, 3);
  EXPECT_EQ(d.stats.impacts, 2);
  EXPECT_EQ(d.collisions, 1);  // zeno closes are no collisions
  EXPECT_EQ(seen, (std::vector<EventKind>{EventKind::impact, EventKind::zeno, EventKind::liftoff}));
  try {
    log({.t = 0.4, .kind = EventKind::stick});
    FAIL() << "a fourth event passes a budget of three";
  } catch (const SimulationError& e) {
    EXPECT_EQ(e.reason(), StopReason::event_limit);
    EXPECT_NE(std::string(e.what()).find("simulation.contact.v_zeno"), std::string::npos);
  }
}

}  // namespace
}  // namespace impactsim
