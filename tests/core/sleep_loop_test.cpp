// The event loop's side of sleeping: islands at rest fall asleep with their velocities zeroed and
// their contacts out of the evaluated set, and wake, each logged.
#include <gtest/gtest.h>

#include <vector>

#include "core/sleep_loop.hpp"
#include "tests/core/resting_balls.hpp"

namespace impactsim {
namespace {

// The loop's data for eleven balls on the ground with every contact sticking, at the initial
// state; ball `sunk` (if any) 10 um into the ground.
struct Loop {
  explicit Loop(int sunk = -1) : scene(testing::resting_balls(11)), sys(scene.system), d(sys) {
    x.resize(sys.model.nq + sys.model.nv);
    x << scene.initial.q, Eigen::VectorXd::Zero(sys.model.nv);
    if (sunk >= 0) x(7 * sunk + 2) -= 1e-5;
    for (ContactMode& m : d.phase.modes.mode) m = ContactMode::stick;
    closed_flags(d.phase.modes, d.phase.closed);
    awake_closed(d.phase.modes, d.sleep, d.phase.closed_set);
    const Eigen::VectorXd q = x.head(sys.model.nq), v = x.tail(sys.model.nv);
    compute_contact_data(sys.model, sys.contacts, q, v, d.phase.closed, d.contact);
    log = [this](const Event& e) { events.push_back(e); };
    rows = [this](const Sample&) { ++row_count; };
  }
  Scene scene;
  const System& sys;
  LoopData d;
  Eigen::VectorXd x;
  std::vector<Event> events;
  int row_count = 0;
  EventLog log;
  SampleSink rows;
};

// Every ball rests: each island falls asleep at once, one `sleep` event, rows before and after.
TEST(SleepLoop, RestingIslandsFallAsleepAndLeaveTheEvaluatedSet) {
  Loop l;
  l.x.tail(l.sys.model.nv).setConstant(1e-9);  // at rest within the tolerances, not exactly
  const Eigen::VectorXd rate = Eigen::VectorXd::Zero(l.x.size());
  ASSERT_TRUE(sleep_resting_islands(l.sys, l.d, 0.0, l.x, rate, l.log, l.rows));
  ASSERT_EQ(l.events.size(), 1u);
  EXPECT_EQ(l.events[0].kind, EventKind::sleep);
  EXPECT_EQ(l.events[0].contacts.size(), 11u);
  EXPECT_GT(l.events[0].kinetic_before, 0.0);
  EXPECT_EQ(l.events[0].kinetic_after, 0.0);
  EXPECT_EQ(l.row_count, 2);
  EXPECT_TRUE(l.x.tail(l.sys.model.nv).isZero(0.0));
  EXPECT_TRUE(l.d.phase.closed_set.empty());
  EXPECT_FALSE(sleep_resting_islands(l.sys, l.d, 0.0, l.x, rate, l.log, l.rows));  // nothing left awake
}

// Ball 5 sits 10 um deep: still now, but at zero velocity Baumgarte's correction would lift it at
// a^2 phi = 4 mm/s^2. It stays awake; the others sleep.
TEST(SleepLoop, AnIslandThatZeroVelocityWouldMoveStaysAwake) {
  Loop l(5);
  const Eigen::VectorXd rate = Eigen::VectorXd::Zero(l.x.size());
  ASSERT_TRUE(sleep_resting_islands(l.sys, l.d, 0.0, l.x, rate, l.log, l.rows));
  ASSERT_EQ(l.events.size(), 1u);
  EXPECT_EQ(l.events[0].contacts, (std::vector<int>{0, 1, 2, 3, 4, 6, 7, 8, 9, 10}));
  EXPECT_EQ(l.d.phase.closed_set, std::vector<int>{5});
}

// An event that did not keep ball 3's contact wakes its island alone; one that kept nothing wakes
// them all; a Painleve step wakes them all. Nothing asleep: nothing logged.
TEST(SleepLoop, IslandsWakeWhereAnEventReachedThem) {
  Loop l;
  const Eigen::VectorXd rate = Eigen::VectorXd::Zero(l.x.size());
  ASSERT_TRUE(sleep_resting_islands(l.sys, l.d, 0.0, l.x, rate, l.log, l.rows));
  const Eigen::VectorXd v = l.x.tail(l.sys.model.nv), q = l.x.head(l.sys.model.nq);
  std::vector<bool> settled(11, true);
  settled[3] = false;
  wake_reached_islands(l.sys, l.d, 0.1, settled, true, v, l.log);
  ASSERT_EQ(l.events.size(), 2u);
  EXPECT_EQ(l.events[1].kind, EventKind::wake);
  EXPECT_EQ(l.events[1].t, 0.1);
  EXPECT_EQ(l.events[1].contacts, std::vector<int>{3});
  wake_reached_islands(l.sys, l.d, 0.2, settled, false, v, l.log);
  ASSERT_EQ(l.events.size(), 3u);
  EXPECT_EQ(l.events[2].contacts.size(), 10u);
  wake_all(l.sys, l.d, 0.3, q, v, l.log);
  wake_reached_islands(l.sys, l.d, 0.3, {}, true, v, l.log);
  EXPECT_EQ(l.events.size(), 3u);
  awake_closed(l.d.phase.modes, l.d.sleep, l.d.phase.closed_set);  // the loop's next phase
  EXPECT_EQ(l.d.phase.closed_set.size(), 11u);
  ASSERT_TRUE(sleep_resting_islands(l.sys, l.d, 0.4, l.x, rate, l.log, l.rows));
  wake_all(l.sys, l.d, 0.5, q, v, l.log);
  ASSERT_EQ(l.events.size(), 5u);
  EXPECT_EQ(l.events[4].contacts.size(), 11u);
}

}  // namespace
}  // namespace impactsim
