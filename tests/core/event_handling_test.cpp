// An event's mode choice and rest: a ball at rest on the ground sticks and rests, a loaded contact
// lifts off when its guard fired, a Painleve rod takes an impact without collision where its
// limits allow one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/event_handling.hpp"
#include "impact/laws.hpp"
#include "scenes/scene.hpp"
#include "tests/core/ball_event.hpp"
#include "tests/core/sliding_rod.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(EventHandling, ABallAtRestOnTheGroundSticksAndRests) {
  Ball b;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  compute_event_data(b.sys, b.modes, b.q, v, b.data);
  choose_modes(b.sys, 2.0, {}, {}, v, b.modes, b.data, b.forces, b.log);
  EXPECT_EQ(b.modes.mode[0], ContactMode::stick);
  EXPECT_TRUE(b.events.empty());  // open -> stick is no event of its own
  std::vector<bool> closed;
  closed_flags(b.modes, closed);
  EXPECT_TRUE(at_rest(b.sys, b.modes, closed, 2.0, b.q, v, b.data, b.forces));
  const Event rest = rest_event(2.0, b.modes, v, b.data);
  EXPECT_EQ(rest.kind, EventKind::rest);
  EXPECT_EQ(rest.contacts, std::vector<int>{0});
  EXPECT_EQ(rest.kinetic_before, 0.0);
  // Moving, it is not at rest; nor without the rule.
  v(0) = 0.1;
  EXPECT_FALSE(at_rest(b.sys, b.modes, closed, 2.0, b.q, v, b.data, b.forces));
  Scene off = b.scene;
  off.system.contact.detect_rest = false;
  EXPECT_FALSE(at_rest(off.system, b.modes, closed, 2.0, b.q, Eigen::VectorXd::Zero(6), b.data, b.forces));
  // Comparisons with NaN are false: a non-finite state once passed the test for rest.
  v.setZero();
  v(1) = NAN;
  EXPECT_FALSE(at_rest(b.sys, b.modes, closed, 2.0, b.q, v, b.data, b.forces));
  v(1) = INFINITY;
  EXPECT_FALSE(at_rest(b.sys, b.modes, closed, 2.0, b.q, v, b.data, b.forces));
  Eigen::VectorXd q = b.q;
  q(0) = NAN;
  EXPECT_FALSE(at_rest(b.sys, b.modes, closed, 2.0, q, Eigen::VectorXd::Zero(6), b.data, b.forces));
}

TEST(EventHandling, ALoadedContactLiftsOffWhenItsGuardFired) {
  // A sticking ball whose lift-off guard fired, now moving up: the contact opens, logged as liftoff.
  Ball b;
  b.modes.mode[0] = ContactMode::stick;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v(2) = 0.5;
  compute_event_data(b.sys, b.modes, b.q, v, b.data);
  choose_modes(b.sys, 0.7, {{0, GuardKind::liftoff}}, {}, v, b.modes, b.data, b.forces, b.log);
  EXPECT_EQ(b.modes.mode[0], ContactMode::open);
  ASSERT_EQ(b.events.size(), 1u);
  EXPECT_EQ(b.events[0].kind, EventKind::liftoff);
  EXPECT_EQ(b.events[0].t, 0.7);
}


// A settled contact (core/settled_islands.hpp) keeps its mode and the references its phase took
// them from; without the flag the acceleration LCP chooses again: the ball's weight.
TEST(EventHandling, ASettledContactKeepsItsModeAndReferences) {
  for (const bool settled : {true, false}) {
    Ball b;
    b.modes.mode[0] = ContactMode::stick;
    b.modes.reference_n[0] = 7.0;  // no force the LCP would give
    Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
    compute_event_data(b.sys, b.modes, b.q, v, b.data);
    choose_modes(b.sys, 0.3, {}, {}, v, b.modes, b.data, b.forces, b.log, {}, std::vector<bool>{settled});
    EXPECT_EQ(b.modes.mode[0], ContactMode::stick);
    const double weight = b.sys.model.bodies[0].mass * 9.81;
    EXPECT_NEAR(b.modes.reference_n[0], settled ? 7.0 : weight, 1e-9) << settled;
    // Chosen, its force is the mode's; kept, it is not judged again (nor computed).
    EXPECT_NEAR(b.forces.lambda_n[0], settled ? 0.0 : weight, 1e-9);
    EXPECT_TRUE(b.events.empty());
  }
}

// A Painleve rod (mu = 3.5, sliding towards its lower side): the impact without collision stops
// the end (losing energy) and it sticks; with none allowed the choice gives up, v untouched, for
// the caller to step through.
TEST(EventHandling, AChoiceTakesImpactsWithoutCollisionOnlyWithinItsLimits) {
  for (const int allowed : {3, 0}) {
    const Scene scene = load_scene_text(sliding_rod(3.5, -1.0), "painleve_rod.yaml");
    const System& sys = scene.system;
    ContactData data{sys.model, sys.contacts};
    ModeForces forces;
    ContactModes modes = ContactModes::all_open(1);
    std::vector<Event> events;
    Eigen::VectorXd v = scene.initial.v;
    compute_event_data(sys, modes, scene.initial.q, v, data);
    ChoiceLimits limits;
    limits.impacts_without_collision = allowed;
    const bool chosen = choose_modes(sys, 0.0, {}, {}, v, modes, data, forces,
                                     [&](const Event& e) { events.push_back(e); }, {}, {}, limits);
    EXPECT_EQ(chosen, allowed > 0);
    if (allowed == 0) {
      EXPECT_EQ(v, scene.initial.v);
      EXPECT_TRUE(events.empty());
      continue;
    }
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events[0].kind, EventKind::iwc);
    EXPECT_LT(events[0].kinetic_after, events[0].kinetic_before);
    EXPECT_EQ(modes.mode[0], ContactMode::stick);
    // The end, at r = (sin theta, -cos theta) from the centre, stops (v + omega x r = 0), to within
    // the velocity tolerance the ground does not approach.
    const double theta = scene.initial.q[2];
    const Eigen::Vector2d r(std::sin(theta), -std::cos(theta));
    EXPECT_NEAR(v[0] - v[2] * r.y(), 0.0, 1e-9);
    EXPECT_GE(v[1] + v[2] * r.x(), 0.0);
    EXPECT_LE(v[1] + v[2] * r.x(), 1e-8);
  }
}

}  // namespace
}  // namespace impactsim
