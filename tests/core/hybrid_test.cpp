// The hybrid event loop on the shipped contact scenes, against closed forms and invariants:
// impact times, rest after impacts, sliding distances, Zeno handling, energy, and runs that stop.
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

TEST(Hybrid, BouncingBallImpactTimesFollowTheClosedForm) {
  const SceneRun r = run("bouncing_ball");
  expect_invariants(r);
  const double g = 9.81, e = 0.9, h = 1.0;
  const double v1 = std::sqrt(2 * g * h), t1 = std::sqrt(2 * h / g);
  const std::vector<Event> impacts = of_kind(r, EventKind::impact);
  ASSERT_GE(impacts.size(), 44u);
  double t = t1, v = v1;
  // Every impact to 1e-11 s through the 44th (t = 8.49 s), where errors of the event location add
  // up: each impact located up to a bracket late also rebounds a little faster (kEventTimePrecision).
  for (int k = 0; k < 44; ++k) {
    EXPECT_NEAR(impacts[k].t, t, 1e-11) << "impact " << k + 1;
    t += 2 * e * v / g;
    v *= e;
  }
  // Kinetic energy falls by e^2 at every impact.
  for (int k = 0; k < 30; ++k) EXPECT_NEAR(impacts[k].kinetic_after / impacts[k].kinetic_before, e * e, 1e-9);
}

TEST(Hybrid, BouncingBallZenoRuleStopsNearTheAccumulationTimeAndTheBallRests) {
  const SceneRun r = run("bouncing_ball");
  const double g = 9.81, e = 0.9, v1 = std::sqrt(2 * g), t1 = std::sqrt(2 / g);
  const double t_inf = t1 + 2 * v1 * e / (g * (1 - e));
  const std::vector<Event> zeno = of_kind(r, EventKind::zeno);
  ASSERT_EQ(zeno.size(), 1u);
  // The remaining bounces, all slower than v_zeno, would have taken 2 v_zeno e / (g (1 - e)).
  const double tail = 2 * r.scene.system.contact.v_zeno / (g * (1 - e));
  EXPECT_LT(zeno[0].t, t_inf);
  EXPECT_GT(zeno[0].t, t_inf - tail);
  EXPECT_LT(zeno[0].kinetic_after, 1e-20);
  EXPECT_EQ(r.events.back().t, zeno[0].t);  // nothing happens after it
  EXPECT_NEAR(r.q.back()[2], 0.1, 1e-9);    // resting on the ground
  EXPECT_LT(r.v.back().norm(), 1e-9);
}

TEST(Hybrid, RockingBlockWithAnitescuPotraRestsAfterTheFirstImpact) {
  Scene scene = shipped("rocking_block");
  scene.law = "anitescu-potra";
  const SceneRun r = simulate(std::move(scene));
  expect_invariants(r);
  ASSERT_EQ(r.events.size(), 2u);
  const Event& e = r.events[0];
  EXPECT_EQ(e.kind, EventKind::impact);
  EXPECT_NEAR(e.t, std::sqrt(2 * 0.01 / 9.81), 1e-10);
  EXPECT_EQ(e.contacts, (std::vector<int>{0, 1}));
  EXPECT_NEAR(e.kinetic_before, 0.0981, 1e-9);
  EXPECT_LT(e.kinetic_after, 1e-20);
  EXPECT_NEAR(e.impulse_n[0], e.impulse_n[1], 1e-12);  // symmetric
  for (size_t k = 0; k < r.t.size(); ++k)
    if (r.t[k] > e.t) {
      EXPECT_LT(r.v[k].norm(), 1e-9) << "t = " << r.t[k];
      EXPECT_NEAR(r.q[k][1], 1.0, 1e-9);
    }
  // Both corners stick with v+ = 0: a fixed point, so the run rests from the impact on.
  EXPECT_EQ(r.events[1].kind, EventKind::rest);
  EXPECT_EQ(r.events[1].t, e.t);
  EXPECT_EQ(r.events[1].contacts, (std::vector<int>{0, 1}));
}

// The rocking block tilted by 5e-7 rad: corner B is 0.5 um above A, inside the distance tolerance,
// when A hits. B is not pulled into A's impact: A's plastic impact alone turns the block about A
// (omega = -0.3 v0, angular momentum about A with I_A = 5/3 kg m^2), and B hits on its own when its
// gap closes at 0.3 v0, theta / (0.3 v0) later (3.8 us; gravity changes it by ~1e-5).
TEST(Hybrid, AContactInsideTheToleranceHasItsOwnImpact) {
  Scene scene = shipped("rocking_block");
  scene.law = "anitescu-potra";
  const double theta = 5e-7, v0 = std::sqrt(2 * 9.81 * 0.01);
  scene.initial.q[2] = theta;  // counter-clockwise: B (right) rises
  const SceneRun r = simulate(std::move(scene));
  expect_invariants(r);
  const std::vector<Event> impacts = of_kind(r, EventKind::impact);
  ASSERT_GE(impacts.size(), 2u);
  EXPECT_EQ(impacts[0].contacts, (std::vector<int>{0}));
  EXPECT_NEAR(impacts[0].t, std::sqrt(2 * (0.01 - 0.5 * theta) / 9.81), 1e-9);
  ASSERT_NE(std::find(impacts[1].contacts.begin(), impacts[1].contacts.end(), 1), impacts[1].contacts.end());
  EXPECT_NEAR(impacts[1].t - impacts[0].t, theta / (0.3 * v0), 1e-3 * theta / (0.3 * v0));
}

// The compass gait walks down its slope with the simultaneous law: heel strikes alternate feet
// (each foot passes through the slope while behind the other: only_ahead_of), a step every
// 0.734 s, each strike losing kinetic energy that the slope gives back; the hip never lands.
TEST(Hybrid, CompassGaitWalksDownTheSlope) {
  Scene scene = shipped("compass_gait_walk");
  scene.law = "anitescu-potra";
  const SceneRun r = simulate(std::move(scene));
  std::vector<const Event*> strikes;
  for (const Event& e : r.events)
    if (e.kind == EventKind::impact) strikes.push_back(&e);
  ASSERT_EQ(strikes.size(), 10u);
  for (size_t k = 0; k < strikes.size(); ++k) {
    const Event& e = *strikes[k];
    EXPECT_EQ(e.contacts, (std::vector<int>{0, 1})) << k;  // both feet, never the hip (contact 2)
    EXPECT_LT(e.kinetic_after, e.kinetic_before);
    if (k > 0) {
      EXPECT_NEAR(e.t - strikes[k - 1]->t, 0.734, 0.01) << k;
    }
  }
  // Lift-offs alternate: the trailing foot leaves the ground at every strike.
  std::vector<int> lifted;
  for (const Event& e : r.events)
    if (e.kind == EventKind::liftoff) lifted.push_back(e.contacts.at(0));
  ASSERT_EQ(lifted.size(), 10u);
  for (size_t k = 1; k < lifted.size(); ++k) EXPECT_NE(lifted[k], lifted[k - 1]);
  // Steps of 0.535 m: the hip advances 9 of them from the first strike to the last (rows within
  // 5 ms of the strikes, at about 0.73 m/s), and it stays up.
  auto hip_x_at = [&](double t) {
    size_t k = 0;
    while (k + 1 < r.t.size() && std::abs(r.t[k + 1] - t) < std::abs(r.t[k] - t)) ++k;
    return r.q[k][0];
  };
  EXPECT_NEAR(hip_x_at(strikes.back()->t) - hip_x_at(strikes.front()->t), 9 * 0.535, 0.03);
  for (const auto& q : r.q) EXPECT_GT(q[1], 0.9);
}

// Skipping to t_end at rest must give the rows a full integration gives: the Zeno-closed bouncing
// ball and the rocking block, with the rest rule on and off.
TEST(Hybrid, RestSkipEqualsIntegratingToTheEnd) {
  for (const char* name : {"bouncing_ball.yaml", "rocking_block.yaml"}) {
    Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/" + name);
    Scene full = scene;
    full.system.contact.detect_rest = false;
    const SceneRun skip = simulate(std::move(scene)), integrated = simulate(std::move(full));
    ASSERT_EQ(skip.q.size(), integrated.q.size()) << name;
    ASSERT_FALSE(skip.events.empty());
    EXPECT_EQ(skip.events.back().kind, EventKind::rest) << name;
    for (const Event& e : integrated.events) EXPECT_NE(e.kind, EventKind::rest) << name;
    const double t_rest = skip.events.back().t;
    for (size_t k = 0; k < skip.q.size(); ++k) {
      EXPECT_LT((skip.q[k] - integrated.q[k]).cwiseAbs().maxCoeff(), 1e-8) << name << " row " << k;
      EXPECT_LT((skip.v[k] - integrated.v[k]).cwiseAbs().maxCoeff(), 1e-8) << name << " row " << k;
      if (skip.t[k] > t_rest) {
        EXPECT_EQ(skip.q[k], skip.q.back()) << name << " row " << k;
      }
    }
  }
}

// Halm and Posa §4.3: pivoting on one corner, the inelastic impact of the other turns the block
// about it with 0.7 of the angular speed, so kinetic energy falls to 0.49 at every corner impact.
// Below v_zeno the Zeno rule closes both corners; bringing both to rest would pull on the one that
// lifts, so that corner is released and the close is the same plastic corner impact (0.49 again),
// until the rocking is slower than the velocity tolerance and the block rests flat.
TEST(Hybrid, TiltedRockingBlockWobblesWithFactor07ThenRests) {
  const SceneRun r = run("rocking_block_tilted");
  expect_invariants(r);
  const std::vector<Event> impacts = of_kind(r, EventKind::impact), closes = of_kind(r, EventKind::zeno);
  ASSERT_GE(impacts.size(), 6u);
  for (size_t k = 0; k < 6; ++k) EXPECT_NEAR(impacts[k].kinetic_after / impacts[k].kinetic_before, 0.49, 1e-6) << k;
  ASSERT_GE(closes.size(), 1u);
  ASSERT_LE(closes.size(), 30u);  // 0.7 per close from v_zeno to the velocity tolerance: about 19
  for (const Event& e : closes) {
    EXPECT_EQ(e.law, "close");
    ASSERT_EQ(e.impulse_n.size(), 2u);
    EXPECT_TRUE((e.impulse_n[0] == 0) != (e.impulse_n[1] == 0)) << "t = " << e.t;  // one corner pushes, one lifts
    EXPECT_GE(std::min(e.impulse_n[0], e.impulse_n[1]), 0.0) << "t = " << e.t;
    EXPECT_NEAR(e.kinetic_after / e.kinetic_before, 0.49, 1e-3) << "t = " << e.t;
  }
  EXPECT_EQ(of_kind(r, EventKind::liftoff).size(), impacts.size() + closes.size() - 1);  // the other corner lifts after each
  // The last close leaves a rocking slower than the velocity tolerance, and the rest test stops it.
  EXPECT_LT(r.v.back().norm(), r.scene.system.contact.velocity_tolerance);
  EXPECT_NEAR(r.q.back()[1], 1.0, 1e-7);
  EXPECT_NEAR(r.q.back()[2], 0.0, 1e-7);
}

// The shipped box_on_incline at four friction coefficients (--set materials.mu=...).
class BoxOnIncline : public ::testing::TestWithParam<std::pair<std::string, double>> {};

TEST_P(BoxOnIncline, DistanceAfterOneSecondMatchesTheClosedForm) {
  const auto [name, mu] = GetParam();
  const SceneRun r = simulate(load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/box_on_incline.yaml",
                                         {parse_override("materials.mu=" + std::to_string(mu))}));
  expect_invariants(r);
  const double a = 15 * std::numbers::pi / 180, g = 9.81;
  const double expected = mu < std::tan(a) ? 0.5 * g * (std::sin(a) - mu * std::cos(a)) : 0.0;
  const Eigen::Vector3d down(-std::cos(a), 0, -std::sin(a));
  const Eigen::Vector3d moved = r.q.back().head<3>() - r.q.front().head<3>();
  EXPECT_DOUBLE_EQ(r.t.back(), 1.0);
  EXPECT_NEAR(moved.dot(down), expected, 1e-6);
  EXPECT_NEAR(moved.cross(down).norm(), 0.0, 1e-6);  // straight down the slope
}

INSTANTIATE_TEST_SUITE_P(Scenes, BoxOnIncline,
                         ::testing::Values(std::pair{std::string("box_on_incline_mu0"), 0.0},
                                           std::pair{std::string("box_on_incline_mu0125"), 0.125},
                                           std::pair{std::string("box_on_incline_mu025"), 0.25},
                                           std::pair{std::string("box_on_incline_mu0375"), 0.375}),
                         [](const auto& info) { return info.param.first; });

// mu = 0.265, just below tan 15 = 0.268: the box slides from rest at 0.028 m/s^2, its slip below
// the velocity tolerance for 36 us and below slow_slip_speed for 3.6 ms. Held (the default), its
// friction points down the slope from the start and the run matches the closed form to rounding;
// following the slip from rest (slow_slip_speed 0) is stiff while the slip is slow, and took 508
// steps, not 282, and came 9e-7 m short after a corner's spurious lift-off.
TEST(Hybrid, ASlowSlideFromRestIsHeldAndExact) {
  const auto slide = [](double slow_slip_speed) {
    return simulate(load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/box_on_incline.yaml",
                               {parse_override("materials.mu=0.265"),
                                parse_override("simulation.contact.slow_slip_speed=" + std::to_string(slow_slip_speed))}));
  };
  const SceneRun held = slide(1e-4), followed = slide(0.0);
  expect_invariants(held);
  const double a = 15 * std::numbers::pi / 180, g = 9.81;
  const Eigen::Vector3d down(-std::cos(a), 0, -std::sin(a));
  const Eigen::Vector3d moved = held.q.back().head<3>() - held.q.front().head<3>();
  EXPECT_NEAR(moved.dot(down), 0.5 * g * (std::sin(a) - 0.265 * std::cos(a)), 1e-12);
  EXPECT_NEAR(moved.cross(down).norm(), 0.0, 1e-12);
  EXPECT_TRUE(held.events.empty());  // the follow event changes no mode: it is not logged
  EXPECT_LT(3 * held.stats.steps, 2 * followed.stats.steps);  // 282 against 508
}

// Batch run `index` of cube_toss (seed 0, as `batch` draws it), checked to keep the invariants and
// to end at t_end at rest on a face.
TEST(Hybrid, EventLimitStopsAZenoRunWithAClearMessage) {
  Scene scene = shipped("bouncing_ball");
  scene.system.contact.v_zeno = 0.0;
  scene.system.contact.max_events = 50;
  try {
    simulate(std::move(scene));
    FAIL() << "expected the event limit";
  } catch (const SimulationError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 50 events"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("v_zeno"), std::string::npos) << e.what();
    EXPECT_EQ(e.reason(), StopReason::event_limit);
  }
}

// A compass gait with a heavier leading leg (1.72 kg) falls into the splits: its two point masses
// come in line with the hip, where M(q) is singular, and the step collapses. The message says so,
// naming the weakest direction, rather than blaming the integrator alone.
TEST(Hybrid, AStepCollapsingAtASingularMassMatrixSaysSo) {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/compass_gait.yaml",
                           {parse_override("bodies[2].mass=1.72369666384")});
  try {
    simulate(std::move(scene));
    FAIL() << "expected the step to collapse";
  } catch (const SimulationError& e) {
    EXPECT_EQ(e.reason(), StopReason::step_underflow);
    const std::string what = e.what();
    EXPECT_NE(what.find("the step size fell below machine precision; there M(q) is nearly singular"), std::string::npos)
        << what;
    EXPECT_NE(what.find("'leading.omega'"), std::string::npos) << what;
  }
}

// A run that stops early hands the state it reached to `stopped`: here the ball at the ground at
// its fourth impact time (t_k = t_1 (1 + 2 e + ... + 2 e^{k-1})), not the initial state.
TEST(Hybrid, AFailedRunReportsTheStateWhereItStopped) {
  Scene scene = shipped("bouncing_ball");
  scene.system.contact.max_events = 3;
  const auto law = make_law(scene.law, scene.laws);
  Rng rng(1);
  struct Stopped {
    double t;
    Eigen::VectorXd q, v;
  };
  std::optional<Stopped> stopped;
  RunCallbacks cb;
  cb.stopped = [&](const Sample& s) { stopped = Stopped{s.t, s.q, s.v}; };
  EXPECT_THROW(simulate_hybrid(scene.system, *law, scene.initial, rng, cb), SimulationError);
  ASSERT_TRUE(stopped);
  const double t1 = std::sqrt(2 * 1.0 / 9.81), e = 0.9;
  EXPECT_NEAR(stopped->t, t1 * (1 + 2 * e + 2 * e * e + 2 * e * e * e), 1e-8);
  EXPECT_NEAR(stopped->q(2), 0.1, 1e-9);
  EXPECT_LT(stopped->v(2), 0.0);
}

// Time that stops advancing is a bounded, reported stop: the window asks 1e-6 t_end of progress
// every stall_window steps, which a 1e9 s run cannot make at this tolerance.
TEST(Hybrid, AStalledRunStopsWithinTheWindow) {
  Scene scene = shipped("bouncing_ball");
  scene.system.simulation.t_end = 1e9;
  scene.system.simulation.output_interval = 1e9;
  scene.system.simulation.stall_window = 50;
  scene.system.contact.max_events = 1'000'000;
  scene.system.contact.v_zeno = 0.0;  // bounces that shrink forever: steps that make no progress
  try {
    simulate(std::move(scene));
    FAIL() << "expected a stall";
  } catch (const SimulationError& e) {
    EXPECT_EQ(e.reason(), StopReason::stalled) << e.what();
    EXPECT_NE(std::string(e.what()).find("simulation.stall_window"), std::string::npos) << e.what();
    // It names what held the run back: the ball's bounces, every one an impact guard firing.
    EXPECT_NE(std::string(e.what()).find("the guards that fired most were impact of 'ball' ("), std::string::npos)
        << e.what();
  }
}

TEST(Hybrid, UnsolvableImpactStopsWithADiagnostic) {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/tests/scenes/contact/jammed_wedge.yaml");
  try {
    simulate(std::move(scene));
    FAIL() << "the jammed wedge has no impact outcome";
  } catch (const SimulationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Anitescu-Potra LCP with 8 variables: ray termination"), std::string::npos) << what;
    EXPECT_NEAR(e.time(), std::sqrt(2 * 0.05 / 9.81), 1e-9);
  }
}

// The broadphase changes speed, never results: with it off (margin 0 computes nothing exactly until
// contact, margin infinite computes everything) the cube toss has the same events.
TEST(Hybrid, EveryLawRunsInTheEventLoop) {
  for (const std::string law : {"anitescu-potra", "routh", "sequential", "propagative"})
    for (const std::string name : {"rocking_block", "rocking_block_tilted"}) {
      Scene scene = shipped(name);
      scene.law = law;
      scene.system.simulation.t_end = 4.0;
      const SceneRun r = simulate(std::move(scene));
      expect_invariants(r);
      int impacts = 0;
      for (const Event& e : r.events) {
        if (e.kind != EventKind::impact) continue;
        ++impacts;
        EXPECT_EQ(e.law, law);
      }
      EXPECT_GE(impacts, 1) << law << " " << name;
      EXPECT_LT(r.v.back().norm(), 1e-6) << law << " " << name;
      EXPECT_NEAR(r.q.back()[1], 1.0, 1e-6) << law << " " << name;  // resting flat
    }
}

TEST(Hybrid, MechanicalEnergyNeverRisesInContactScenes) {
  for (const std::string name : {"cube_toss", "rocking_block_tilted", "box_on_incline"}) {
    const SceneRun r = run(name);
    double previous = INFINITY;
    for (size_t k = 0; k < r.t.size(); ++k) {
      const auto [K, U] = energies(r.scene.system.model, r.q[k], r.v[k]);
      EXPECT_LE(K + U, previous + 1e-7) << name << " at t = " << r.t[k];
      previous = K + U;
    }
  }
}

}  // namespace
}  // namespace impactsim
