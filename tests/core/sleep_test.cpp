// Islands at rest fall asleep, and wake where an event reaches them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/simulate.hpp"
#include "core/sleep.hpp"
#include "impact/laws.hpp"
#include "scenes/scene.hpp"
#include "tests/core/resting_balls.hpp"

namespace impactsim {
namespace {

using testing::resting_balls;

// The balls' contacts closed and their Jacobians at the initial state, for fall_asleep.
struct Resting {
  explicit Resting(const Scene& scene) : sys(scene.system), data(sys.model, sys.contacts) {
    const Eigen::VectorXd v = Eigen::VectorXd::Zero(sys.model.nv);
    compute_contact_data(sys.model, sys.contacts, scene.initial.q, v, {}, data);
    for (int i = 0; i < sys.contacts.size(); ++i) closed.push_back(i);
  }
  const System& sys;
  ContactData data;
  std::vector<int> closed;
};

TEST(Sleep, IsTakenInLargeModelsThatDetectRest) {
  const Scene large = resting_balls(11), small = resting_balls(2);
  ASSERT_GE(large.system.model.nv, kBlockwiseFrom);
  EXPECT_TRUE(make_sleep(large.system.model, large.system.contacts, large.system.contact).enabled);
  EXPECT_FALSE(make_sleep(small.system.model, small.system.contacts, small.system.contact).enabled);
  for (bool ContactSettings::*off : {&ContactSettings::sleep, &ContactSettings::detect_rest}) {
    ContactSettings settings = large.system.contact;
    settings.*off = false;
    EXPECT_FALSE(make_sleep(large.system.model, large.system.contacts, settings).enabled);
  }
  const Sleep s = make_sleep(large.system.model, large.system.contacts, large.system.contact);
  for (int b = 0; b < 11; ++b) EXPECT_EQ(s.block_of_body[b], b);  // a free ball is its own tree
  EXPECT_FALSE(s.any());
}

// Ball 4 moves at 1 cm/s and ball 2 accelerates at 1 mm/s^2: over the second left, each would move
// a contact by far more than the tolerances. Every other ball's island is at rest; of those, ball 3
// would accelerate at 1 mm/s^2 once its velocities are zero (its drift's pull), so it stays awake
// too. Only the contacts between two still bodies (or one and the ground) are dormant.
TEST(Sleep, OnlyIslandsAtRestOverTheTimeLeftFallAsleep) {
  const Scene scene = resting_balls(11);
  Resting r(scene);
  Sleep sleep = make_sleep(r.sys.model, r.sys.contacts, r.sys.contact);
  const auto& blocks = r.data.body.M_llt.blocks();
  Eigen::VectorXd v = Eigen::VectorXd::Zero(r.sys.model.nv), vdot = v;
  v(6 * 4) = 1e-2;
  vdot(6 * 2 + 2) = 1e-3;
  const IslandList resting = resting_islands(r.sys.contact, 1.0, r.data.body, r.data.jac, r.closed, v, vdot, sleep);
  ASSERT_EQ(resting.contacts.size(), 9u);
  EXPECT_EQ(resting.contacts[3], std::vector<int>{5});
  EXPECT_EQ(resting.blocks[3], std::vector<int>{5});
  Eigen::VectorXd at_zero = vdot;
  at_zero(6 * 3 + 2) = 1e-3;
  const std::vector<int> asleep = fall_asleep(r.sys.contact, 1.0, blocks, resting, v, at_zero, sleep);
  EXPECT_EQ(asleep, (std::vector<int>{0, 1, 5, 6, 7, 8, 9, 10}));
  for (int k = 0; k < 11; ++k) {
    const bool still = k != 2 && k != 3 && k != 4;
    EXPECT_EQ(sleep.contact_asleep(k), still) << k;
    EXPECT_EQ(dormant(r.sys.contacts, sleep, k), still) << k;
  }
  // Where the time left is short enough, the accelerations move nothing either; ball 4 still moves.
  const IslandList later = resting_islands(r.sys.contact, 1e-3, r.data.body, r.data.jac, r.closed, v, at_zero, sleep);
  EXPECT_EQ(fall_asleep(r.sys.contact, 1e-3, blocks, later, v, at_zero, sleep), (std::vector<int>{2, 3}));
  ContactModes modes = ContactModes::all_open(r.sys.contacts.size());
  for (int k : {3, 4, 5}) modes.mode[k] = ContactMode::stick;
  std::vector<int> awake;
  awake_closed(modes, sleep, awake);
  EXPECT_EQ(awake, std::vector<int>{4});
  std::vector<int> moving;
  moving_contacts(r.sys.contacts, sleep, r.closed, moving);
  EXPECT_EQ(moving, std::vector<int>{4});
  Eigen::VectorXd a = Eigen::VectorXd::Ones(r.sys.model.nv);
  zero_sleeping(blocks, sleep, a);
  EXPECT_EQ(a.sum(), 6.0);  // ball 4's six velocities alone
  zero_islands(blocks, later, v);
  EXPECT_EQ(v(6 * 4), 1e-2);  // not one of them
}

TEST(Sleep, AnIslandWakesWhereAnEventReachedItOrMovedIt) {
  const Scene scene = resting_balls(11);
  Resting r(scene);
  Sleep sleep = make_sleep(r.sys.model, r.sys.contacts, r.sys.contact);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(r.sys.model.nv);
  const auto& blocks = r.data.body.M_llt.blocks();
  const IslandList resting = resting_islands(r.sys.contact, 1.0, r.data.body, r.data.jac, r.closed, v, v, sleep);
  ASSERT_EQ(fall_asleep(r.sys.contact, 1.0, blocks, resting, v, v, sleep).size(), 11u);
  std::vector<bool> reached(11, false);
  reached[3] = true;
  EXPECT_EQ(wake_reached(blocks, reached, v, sleep), std::vector<int>{3});
  reached[3] = false;
  v(6 * 7 + 5) = 1e-12;  // spun by an impact, however little
  EXPECT_EQ(wake_reached(blocks, reached, v, sleep), std::vector<int>{7});
  EXPECT_EQ(wake_reached(blocks, {}, v, sleep), (std::vector<int>{0, 1, 2, 4, 5, 6, 8, 9, 10}));
  EXPECT_FALSE(sleep.any());
}

struct Outcome {
  RunStats stats;
  std::vector<Event> events;
  std::vector<Eigen::VectorXd> q;  // at the output times
};

Outcome run(const Scene& scene, bool sleep) {
  System sys = scene.system;
  sys.contact.sleep = sleep;
  sys.simulation.island_clocks = IslandClocks::off;  // the sleep of one loop over every ball
  const auto law = make_law(scene.law, scene.laws);
  Outcome r;
  RunCallbacks cb;
  cb.event = [&](const Event& e) { r.events.push_back(e); };
  cb.sample = [&](const Sample& s) { r.q.push_back(s.q); };
  Rng rng(0);
  r.stats = simulate(sys, *law, scene.initial, rng, cb);
  return r;
}

std::vector<Event> of_kind(const Outcome& r, EventKind kind) {
  std::vector<Event> out;
  std::copy_if(r.events.begin(), r.events.end(), std::back_inserter(out), [&](const Event& e) { return e.kind == kind; });
  return out;
}

// Ten balls resting on the ground fall asleep at the start while an eleventh rolls on; a twelfth,
// dropped 0.2 m onto the last, wakes that one's island at its (plastic) impact, and the two fall
// asleep again at once. The run is the run without sleeping to the tolerances: the same impact at
// the same instant, the same state at the end.
TEST(Sleep, ABallLandingOnASleepingOneWakesItAndTheRunIsTheSame) {
  const Scene scene = resting_balls(11, 0.2, true);
  const Outcome slept = run(scene, true), awake = run(scene, false);
  const std::vector<Event> sleeps = of_kind(slept, EventKind::sleep), wakes = of_kind(slept, EventKind::wake);
  const std::vector<Event> impacts = of_kind(slept, EventKind::impact), impacts_awake = of_kind(awake, EventKind::impact);
  ASSERT_EQ(impacts.size(), 1u);
  ASSERT_EQ(impacts_awake.size(), 1u);
  EXPECT_NEAR(impacts[0].t, std::sqrt(2 * 0.2 / 9.81), 1e-9);
  EXPECT_NEAR(impacts[0].t, impacts_awake[0].t, 1e-12);
  EXPECT_NEAR(impacts[0].kinetic_after, impacts_awake[0].kinetic_after, 1e-9);
  ASSERT_EQ(sleeps.size(), 2u);
  EXPECT_EQ(sleeps[0].t, 0.0);
  EXPECT_EQ(sleeps[0].contacts, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));  // not the rolling ball's
  ASSERT_EQ(wakes.size(), 1u);
  EXPECT_EQ(wakes[0].t, impacts[0].t);
  EXPECT_EQ(wakes[0].contacts, std::vector<int>{10});
  EXPECT_EQ(sleeps[1].contacts, (std::vector<int>{10, 11}));
  EXPECT_LT(sleeps[1].t - impacts[0].t, 0.01);
  for (const Event& e : sleeps) EXPECT_LE(e.kinetic_after, e.kinetic_before) << e.t;
  EXPECT_TRUE(of_kind(slept, EventKind::rest).empty());  // the rolling ball never rests
  ASSERT_EQ(slept.q.size(), awake.q.size());
  EXPECT_LE((slept.q.back() - awake.q.back()).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_GE(slept.stats.min_phi, -1e-6);
}

}  // namespace
}  // namespace impactsim
