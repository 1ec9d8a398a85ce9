// The hybrid event loop on the shipped contact scenes, against closed forms and invariants:
// impact times, rest after impacts, sliding distances, Zeno handling, energy and penetration.
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

namespace impactsim {
namespace {

struct SceneRun {
  Scene scene;
  std::vector<Event> events;
  std::vector<double> t;
  std::vector<Eigen::VectorXd> q, v;
  RunStats stats;
};

SceneRun simulate(Scene scene) {
  SceneRun r{std::move(scene), {}, {}, {}, {}, {}};
  const auto law = make_law(r.scene.law, r.scene.laws);
  Rng rng(r.scene.seed);
  RunCallbacks cb;
  cb.sample = [&](const Sample& s) {
    r.t.push_back(s.t);
    r.q.push_back(s.q);
    r.v.push_back(s.v);
  };
  cb.event = [&](const Event& e) { r.events.push_back(e); };
  r.stats = simulate_hybrid(r.scene.system, *law, r.scene.initial, rng, cb);
  return r;
}

Scene shipped(const std::string& name) { return load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/" + name + ".yaml"); }

SceneRun run(const std::string& name) { return simulate(shipped(name)); }

// Invariants every run must keep: kinetic energy never rises across an impact (e <= 1), and no
// contact sinks deeper than the documented distance tolerance. (A `step` lasts h: the weight
// works on it, see AnInstantWithNoConsistentModesIsSteppedThrough.)
void expect_invariants(const SceneRun& r) {
  for (const Event& e : r.events) {
    if (e.kind == EventKind::step) continue;
    EXPECT_LE(e.kinetic_after, e.kinetic_before * (1 + 1e-9) + 1e-12) << e.kind << " at t = " << e.t;
  }
  EXPECT_GE(r.stats.min_phi, -r.scene.system.contact.distance_tolerance);
}

// A shipped scene under another law, its invariants checked.
SceneRun run_with_law(const std::string& name, const std::string& law) {
  Scene scene = shipped(name);
  scene.law = law;
  SceneRun r = simulate(std::move(scene));
  expect_invariants(r);
  return r;
}

std::vector<Event> of_kind(const SceneRun& r, EventKind kind) {
  std::vector<Event> out;
  for (const Event& e : r.events)
    if (e.kind == kind) out.push_back(e);
  return out;
}

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
// about it with 0.7 of the angular speed, so kinetic energy falls to 0.49 at every corner impact;
// the Zeno rule ends the wobble and the block rests flat.
TEST(Hybrid, TiltedRockingBlockWobblesWithFactor07ThenRests) {
  const SceneRun r = run("rocking_block_tilted");
  expect_invariants(r);
  const std::vector<Event> impacts = of_kind(r, EventKind::impact);
  ASSERT_GE(impacts.size(), 6u);
  for (size_t k = 0; k < 6; ++k) EXPECT_NEAR(impacts[k].kinetic_after / impacts[k].kinetic_before, 0.49, 1e-6) << k;
  ASSERT_EQ(of_kind(r, EventKind::zeno).size(), 1u);
  EXPECT_EQ(of_kind(r, EventKind::liftoff).size(), impacts.size());  // the other corner lifts after each
  EXPECT_LT(r.v.back().norm(), 1e-9);
  EXPECT_NEAR(r.q.back()[1], 1.0, 1e-9);
  EXPECT_NEAR(r.q.back()[2], 0.0, 1e-9);
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

// Batch run `index` of cube_toss (seed 0, as `batch` draws it), checked to keep the invariants and
// to end at t_end at rest on a face.
SceneRun cube_toss_run_resting_on_a_face(std::uint64_t index) {
  Scene scene = shipped("cube_toss");
  Rng rng(sample_seed(scene.seed, index));
  std::vector<double> drawn;
  scene.initial = draw_initial_state(scene.initial, scene.randomize, rng, drawn);
  SceneRun r = simulate(std::move(scene));
  expect_invariants(r);
  EXPECT_NEAR(r.t.back(), r.scene.system.simulation.t_end, 1e-12) << "run " << index;
  EXPECT_LT(r.v.back().norm(), 1e-6) << "run " << index;
  EXPECT_NEAR(r.q.back()[2], 0.1, 1e-6) << "run " << index;
  return r;
}

// Batch runs 4, 17, 19 and 23 of cube_toss (seed 0, as `batch` draws them): an edge or a corner
// starts sliding from rest, and the friction direction used to follow the tangential velocity of
// 1e-10 m/s that rounding turns at will; the step size collapsed (stalled or out of steps at
// 0.65 to 0.79 s). Each now rests on a face at t_end.
TEST(Hybrid, CubeTossSlidingFromRestDoesNotStall) {
  for (const std::uint64_t index : {4, 17, 19, 23}) cube_toss_run_resting_on_a_face(index);
}

// Batch runs 3164 and 7092 of cube_toss: an edge lands with one end sliding fast on a load of
// 0.4 N while the other starts to slide from rest; with that slip taken from the circular cone
// instead of the LCP's polygon the sliding end would need a pull, and the runs stopped with "no
// contact forces" (0.47 s, 0.44 s). Opened, that end accelerates away: it lifts off, and each cube
// rests on a face at t_end.
TEST(Hybrid, CubeTossLoadedCornerThatWouldPullLiftsOff) {
  for (const std::uint64_t index : {3164, 7092}) {
    const SceneRun r = cube_toss_run_resting_on_a_face(index);
    EXPECT_TRUE(of_kind(r, EventKind::iwc).empty()) << "run " << index;
  }
}

// Batch runs 2896, 3056, 3257, 3268, 6777 and 8564 of cube_toss: with slips below the velocity
// tolerance left as they were, a corner "sliding from rest" along the LCP's direction while its
// slip of 8e-7 m/s pointed elsewhere got a friction direction that turned with that slip: 3056
// rocked on an edge at steps of 7e-7 s until the step limit (0.76 s), and 2896, at rest on a face,
// alternated one corner's lift-off and touch-down 9,800 times at t = 0.7976 s (stalled). Such slips
// are now brought to rest at the event: each cube rests on a face at t_end after a few events.
TEST(Hybrid, CubeTossSlowSlipsAreBroughtToRest) {
  for (const std::uint64_t index : {2896, 3056, 3257, 3268, 6777, 8564}) {
    const SceneRun r = cube_toss_run_resting_on_a_face(index);
    EXPECT_LT(r.events.size(), 40u) << "run " << index;
    EXPECT_EQ(of_kind(r, EventKind::rest).size(), 1u) << "run " << index;
  }
}

// A 3-D box resting flat on its four corners with a slip of 5e-7 m/s, below the velocity
// tolerance: the slip is removed at the start (a projection in the kinetic metric, so energy only
// falls), the box is at rest at t = 0 and does not move; before, the sticking mode's drift
// correction let the slip decay over 1/40 s and the box crept 1.2e-8 m.
TEST(Hybrid, SlipBelowTheVelocityToleranceIsRemovedAtTheStart) {
  const SceneRun r = simulate(load_scene_text(R"(
world:
  shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]
bodies:
  - name: box
    joint: {type: free}
    density: 1000
    shapes: [{name: box_shape, type: box, size: [0.2, 0.2, 0.2]}]
    initial: {z: 0.1, vx: 4.0e-7, vy: -3.0e-7, wz: 1.0e-6}
materials: {mu: 0.5}
collide:
  - {bodies: [box, world]}
simulation: {t_end: 1}
)", "slow_slip.yaml"));
  expect_invariants(r);
  const std::vector<Event> rest = of_kind(r, EventKind::rest);
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].t, 0.0);
  EXPECT_EQ(rest[0].contacts.size(), 4u);
  EXPECT_LT(r.v.back().norm(), 1e-15);
  EXPECT_LT((r.q.back().head<3>() - r.q.front().head<3>()).norm(), 1e-15);
}

// A damped vertical slider, m zdd = -m g - b zd: z(t) = -(m g / b) t + (m / b)(v0 + m g / b)(1 - e^(-b t / m)),
// and a damped pendulum, whose energy only ever falls.
TEST(Hybrid, JointDampingFollowsTheClosedFormAndRemovesEnergy) {
  const SceneRun slider = simulate(load_scene_text(R"(
world: {gravity: [0, 0, -9.81]}
bodies:
  - name: slider
    joint: {type: prismatic, axis: [0, 0, 1], damping: 2.0}
    mass: 0.5
    inertia: [0.01, 0.01, 0.01]
    initial: {s: 0.0, sdot: 1.0}
simulation: {t_end: 1.0, output_interval: 0.05, rtol: 1.0e-10, atol: 1.0e-12}
)", "damped_slider.yaml"));
  const double m = 0.5, b = 2.0, g = 9.81, v0 = 1.0, v_inf = -m * g / b;
  ASSERT_EQ(slider.t.size(), 21u);
  for (size_t k = 0; k < slider.t.size(); ++k) {
    const double t = slider.t[k], decay = std::exp(-b * t / m);
    EXPECT_NEAR(slider.q[k][0], v_inf * t + (m / b) * (v0 - v_inf) * (1 - decay), 1e-9) << "t = " << t;
    EXPECT_NEAR(slider.v[k][0], v_inf + (v0 - v_inf) * decay, 1e-9) << "t = " << t;
  }
  const SceneRun pendulum = simulate(load_scene_text(R"(
world: {gravity: [0, 0, -9.81]}
bodies:
  - name: rod
    joint: {type: revolute, axis: [0, 1, 0], damping: 0.05}
    mass: 1
    com: [0, 0, -0.5]
    inertia: [0.08, 0.08, 0.001]
    initial: {theta: 1.2}
simulation: {t_end: 3.0, output_interval: 0.01}
)", "damped_pendulum.yaml"));
  double last = std::numeric_limits<double>::infinity();
  for (size_t k = 0; k < pendulum.t.size(); ++k) {
    const auto [K, U] = energies(pendulum.scene.system.model, pendulum.q[k], pendulum.v[k]);
    EXPECT_LE(K + U, last + 1e-12) << "t = " << pendulum.t[k];
    last = K + U;
  }
  const auto [K0, U0] = energies(pendulum.scene.system.model, pendulum.q.front(), pendulum.v.front());
  EXPECT_LT(last, K0 + U0 - 0.05);  // it did damp
}

// The sphere stack pushed sideways (gravity [-1, 0, -9.81]) slides its spheres on each other from
// rest; it stalled at t = 0.494 s for the same reason and now runs to t_end.
TEST(Hybrid, SphereStackPushedSidewaysRunsToTheEnd) {
  Scene scene = shipped("sphere_stack");
  scene.system.model.gravity = Eigen::Vector3d(-1, 0, -9.81);
  const SceneRun r = simulate(std::move(scene));
  expect_invariants(r);
  EXPECT_NEAR(r.t.back(), 1.0, 1e-12);
  EXPECT_LT(r.stats.steps, 5000);
}

// A run of scenes/sphere_pile (10 spheres dropped into a 0.25 m bin): they stay inside the walls and
// above the ground (no deeper than the distance tolerance), no impact adds energy, and `above` of
// them come to lie on the others.
void expect_pile_settled_in_the_bin(const SceneRun& r, int above) {
  expect_invariants(r);
  ASSERT_NEAR(r.t.back(), 1.0, 1e-12);
  const Eigen::VectorXd& q = r.q.back();
  const Eigen::VectorXd& v = r.v.back();
  const double tol = r.scene.system.contact.distance_tolerance, inner = 0.125 - 0.05;
  int stacked = 0;
  for (int i = 0; i < 10; ++i) {
    EXPECT_LE(std::abs(q[7 * i]), inner + tol) << "sphere " << i;
    EXPECT_LE(std::abs(q[7 * i + 1]), inner + tol) << "sphere " << i;
    EXPECT_GE(q[7 * i + 2], 0.05 - tol) << "sphere " << i;
    stacked += q[7 * i + 2] > 0.1;
    EXPECT_LT(v.segment<3>(6 * i).norm(), 0.1) << "sphere " << i;  // settling: speeds of 0.92 m/s at the drop
  }
  EXPECT_EQ(stacked, above);
}

// Frictionless, five reach the floor: the four corners and the centre (0.106 m from each corner,
// more than a diameter). Four did while the Zeno rule stopped frictionless slips, as if the spheres
// stuck where they landed.
TEST(Hybrid, SpherePileSettlesInsideTheBin) {
  const SceneRun r = run("sphere_pile");
  expect_pile_settled_in_the_bin(r, 5);
  // Frictionless contacts always slide: no stick or slip events (there were 274 when they could stick).
  EXPECT_TRUE(of_kind(r, EventKind::stick).empty());
  EXPECT_TRUE(of_kind(r, EventKind::slip).empty());
}

// Twenty frictionless spheres (tests/scenes/contact/frictionless_pile_20.yaml). A contact that lifted
// off and stays at the surface with no load is one the acceleration LCP may close or leave open
// (lambda_n = 0, a_n = 0); closed, its force of 1e-14 N lifted it off again on rounding. Pairs of
// such contacts took turns, each closed again at the other's lift-off: 2,643 lift-offs, and 454
// steps where the chatter rule stepped through. They stay open now: the pile comes to rest on the
// exact event path.
TEST(Hybrid, UnloadedContactsRestingAtTheSurfaceStayOpen) {
  const SceneRun r = simulate(load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/tests/scenes/contact/frictionless_pile_20.yaml"));
  expect_invariants(r);
  ASSERT_NEAR(r.t.back(), 1.0, 1e-12);
  EXPECT_TRUE(of_kind(r, EventKind::step).empty());
  EXPECT_LT(of_kind(r, EventKind::liftoff).size(), 500u);  // 237
  const Eigen::VectorXd& v = r.v.back();
  for (int i = 0; i < 20; ++i) EXPECT_LT(v.segment<6>(6 * i).norm(), 1e-4) << "sphere " << i;  // at rest (1.3 m/s at the drop)
}

// The same pile with friction (mu = 0.3). At t = 0.387 s nine contacts start to slide from rest at
// once; with all of them sliding, the slips consistent with the circular cone have two running
// against their accelerations (k < 0), and the polygon's directions left in their place made those
// two fire slip-to-stick every 5 ns until the step limit. Two of them sticking is consistent, and
// the slip start now finds it, so the pile runs to t_end and settles, six on the four that stick
// to the floor. Its slips are not stopped by the Zeno rule unless they are slower than v_zeno, so
// slow slips reverse and stick again and again: 1,097 of its 2,683 events are Anitescu-Potra
// steps through chatter (6 while the Zeno rule stopped every slip at once); the bound on the
// integrator's steps catches a stall long before the step limit.
TEST(Hybrid, AFrictionalSpherePileSettles) {
  const SceneRun r = simulate(load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/sphere_pile.yaml",
                                         {parse_override("materials.mu=0.3")}));
  ASSERT_EQ(r.scene.system.contacts.contact(0).mu, 0.3);
  expect_pile_settled_in_the_bin(r, 6);
  EXPECT_FALSE(of_kind(r, EventKind::stick).empty());
  EXPECT_FALSE(of_kind(r, EventKind::slip).empty());
  EXPECT_LT(r.stats.steps, 50000);
}

// Where the event loop finds no consistent modes (a few nearly unloaded sliding contacts that
// impacts without collision cannot jam), or its guards fire again and again without a collision (a
// slide from rest whose slip start gave up accelerates against its slip direction: its stick guard
// fired every 1.4e-12 s), Anitescu-Potra steps carry the run on. With painleve_step = 0 the run
// stops there, naming the key: the 10-sphere pile with mu = 0.3 stalls at t = 0.439 s, a stick
// guard firing 300 times in 3e-11 s. By default twelve frictional spheres
// (tests/scenes/contact/frictional_pile_12.yaml) reach t_end through some 500 steps. No step adds energy
// (the weight's work is the potential energy it loses, less the scheme's h^2 g^2 m / 2 per body;
// friction dissipates), and nothing sinks a contact (at t = 0.4695 s the projection that brings
// slow slips to rest once gave a sliding contact an approach of 8e-4 m/s, and it sank 5 um).
TEST(Hybrid, InstantsTheEventLoopCannotPassAreSteppedThrough) {
  try {
    // A short stall window: each chattering event costs an LCP over the pile.
    simulate(load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/sphere_pile.yaml",
                        {parse_override("materials.mu=0.3"), parse_override("simulation.contact.painleve_step=0"),
                         parse_override("simulation.stall_window=300")}));
    ADD_FAILURE() << "no stop";
  } catch (const SimulationError& e) {
    EXPECT_TRUE(e.reason() == StopReason::no_contact_forces || e.reason() == StopReason::stalled) << e.what();
    EXPECT_LT(e.time(), 1.0);
    EXPECT_NE(std::string(e.what()).find("simulation.contact.painleve_step"), std::string::npos) << e.what();
  }
  const std::string pile = std::string(IMPACTSIM_SOURCE_DIR) + "/tests/scenes/contact/frictional_pile_12.yaml";
  const Scene scene = load_scene(pile);
  const auto law = make_law(scene.law, scene.laws);
  Rng rng(scene.seed);
  std::vector<Event> events;
  struct Row {
    double t, kinetic, potential;
  };
  std::vector<Row> around;  // the rows just before and after each event
  double t_last = 0.0;
  RunCallbacks cb;
  cb.sample = [&](const Sample& s) { t_last = s.t; };
  cb.event_sample = [&](const Sample& s) { around.push_back({s.t, s.kinetic_energy, s.potential_energy}); };
  cb.event = [&](const Event& e) { events.push_back(e); };
  const RunStats stats = simulate_hybrid(scene.system, *law, scene.initial, rng, cb);
  EXPECT_EQ(t_last, scene.system.simulation.t_end);
  EXPECT_GE(stats.min_phi, -scene.system.contact.distance_tolerance);
  int steps = 0;
  for (size_t k = 0; k < events.size(); ++k) {
    const Event& e = events[k];
    if (e.kind != EventKind::step) continue;
    ++steps;
    EXPECT_EQ(e.law, "time-stepping");
    EXPECT_FALSE(e.contacts.empty());
    // Its rows: the state at its start, then at its end (each event logged before it wrote two).
    const Row* before = nullptr;
    const Row* after = nullptr;
    for (size_t a = 0; a + 1 < around.size(); ++a)
      if (around[a].t == e.t && around[a + 1].t > e.t && around[a + 1].t <= e.t + scene.system.contact.painleve_step) {
        before = &around[a];
        after = &around[a + 1];
      }
    ASSERT_TRUE(before && after);
    EXPECT_NEAR(before->kinetic, e.kinetic_before, 1e-12);
    EXPECT_LE(after->kinetic + after->potential, before->kinetic + before->potential);
  }
  EXPECT_GE(steps, 1);
}

TEST(Hybrid, CubeTossEndsAtRestOnAFace) {
  const SceneRun r = run("cube_toss");
  expect_invariants(r);
  EXPECT_GE(of_kind(r, EventKind::impact).size(), 3u);
  EXPECT_LT(r.v.back().norm(), 1e-6);
  EXPECT_NEAR(r.q.back()[2], 0.1, 1e-6);
  // One body axis points straight up or down.
  const Quat orientation(r.q.back()[3], r.q.back()[4], r.q.back()[5], r.q.back()[6]);
  const Eigen::Vector3d up = orientation.toRotationMatrix().transpose() * Eigen::Vector3d::UnitZ();
  EXPECT_NEAR(up.cwiseAbs().maxCoeff(), 1.0, 1e-6);
}

std::vector<std::string> contact_names(const SceneRun& r, const std::vector<int>& ids) {
  std::vector<std::string> out;
  for (int i : ids) out.push_back(r.scene.system.contacts.contact(i).name);
  std::sort(out.begin(), out.end());
  return out;
}

// box_stack (automatic contacts): each box lands flat on the one below, its four bottom corners
// at once, and the column ends at rest, stacked, each box on the top face of the one below.
class BoxStack : public ::testing::TestWithParam<std::string> {};

TEST_P(BoxStack, ComesToRestStacked) {
  const SceneRun r = run_with_law("box_stack", GetParam());
  const std::vector<Event> impacts = of_kind(r, EventKind::impact);
  ASSERT_EQ(impacts.size(), 3u);
  EXPECT_EQ(contact_names(r, impacts[0].contacts),
            (std::vector<std::string>{"bottom_box.+x+y-z@ground", "bottom_box.+x-y-z@ground", "bottom_box.-x+y-z@ground",
                                      "bottom_box.-x-y-z@ground"}));
  EXPECT_EQ(impacts[1].contacts.size(), 8u);  // the bottom box's four on the ground, the middle box's four on it
  EXPECT_EQ(impacts[2].contacts.size(), 12u);
  EXPECT_LT(r.v.back().norm(), 1e-9);
  for (int b = 0; b < 3; ++b) EXPECT_NEAR(r.q.back()[7 * b + 2], 0.05 + 0.1 * b, 1e-8) << "box " << b;
  // At rest: four corners of each box on the solid below, every other contact open.
  const std::vector<bool> closed = closed_contacts(r.scene.system, r.q.back(), r.v.back());
  std::map<std::string, int> per_pair;
  for (size_t i = 0; i < closed.size(); ++i)
    if (closed[i]) ++per_pair[r.scene.system.contacts.contact(static_cast<int>(i)).name.substr(0, 6) + "@" +
                             r.scene.system.contacts.geometries()[r.scene.system.contacts.contact(static_cast<int>(i)).geometry_b].name];
  EXPECT_EQ(per_pair, (std::map<std::string, int>{{"bottom@ground", 4}, {"middle@bottom_box", 4}, {"top_bo@middle_box", 4}}));
}

std::string law_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Laws, BoxStack, ::testing::Values("anitescu-potra", "propagative"), law_test_name);

// dominoes: the first domino topples the other nine, one after another; by t_end every one leans
// on the next (past 1.2 rad) and the last lies on the ground, or nearly. The wave reaches the last
// domino at t = 0.56 s under sequential single impacts, 0.57 s under simultaneous ones. (Sequential
// took 0.64 s while the Zeno rule stopped every slip it closed: its slow single impacts landed
// sliding corners, and stopping them took far more friction than the cone allows.)
double first_time_below(const SceneRun& r, int coordinate, double value) {
  for (size_t k = 0; k < r.q.size(); ++k)
    if (r.q[k][coordinate] < value) return r.t[k];
  return INFINITY;
}

class Dominoes : public ::testing::TestWithParam<std::string> {};

TEST_P(Dominoes, TheFirstTopplesTheRow) {
  const SceneRun r = run_with_law("dominoes", GetParam());
  ASSERT_NEAR(r.t.back(), 0.7, 1e-12);
  for (int d = 0; d < 9; ++d) EXPECT_LT(r.q.back()[3 * d + 2], -1.2) << "domino " << d;
  EXPECT_LT(r.q.back()[29], -1.4);  // the last, on its way down or flat
  // Each domino starts to fall (0.3 rad) after the one before it.
  for (int d = 1; d < 10; ++d) EXPECT_GT(first_time_below(r, 3 * d + 2, -0.3), first_time_below(r, 3 * d - 1, -0.3));
  const double last_falls = first_time_below(r, 29, -0.3);
  EXPECT_NEAR(last_falls, GetParam() == "sequential" ? 0.56 : 0.57, 0.005);
}

INSTANTIATE_TEST_SUITE_P(Laws, Dominoes, ::testing::Values("anitescu-potra", "sequential"), law_test_name);

// Painleve after an impact: a law that leaves a foot sliding where mu is large (Routh's sample in
// ramone, mu = 1e5; the frictionless propagative law in ramone, compass_gait and disk_stack) gives
// the acceleration LCP no solution. An impact without collision jams the slide and the run goes on
// to t_end; each one removes kinetic energy with pushing impulses.
using SceneLaw = std::pair<std::string, std::string>;
class PainleveAfterImpact : public ::testing::TestWithParam<SceneLaw> {};

TEST_P(PainleveAfterImpact, IsJammedAndTheRunGoesOn) {
  const SceneRun r = run_with_law(GetParam().first, GetParam().second);
  EXPECT_DOUBLE_EQ(r.t.back(), r.scene.system.simulation.t_end);
  const std::vector<Event> iwc = of_kind(r, EventKind::iwc);
  ASSERT_FALSE(iwc.empty());
  for (const Event& e : iwc) {
    EXPECT_LT(e.kinetic_after, e.kinetic_before) << "t = " << e.t;
    for (double p : e.impulse_n) EXPECT_GE(p, 0.0);
  }
}

INSTANTIATE_TEST_SUITE_P(Scenes, PainleveAfterImpact,
                         ::testing::Values(SceneLaw{"ramone", "routh"}, SceneLaw{"ramone", "propagative"},
                                           SceneLaw{"compass_gait", "propagative"}, SceneLaw{"disk_stack", "propagative"}),
                         [](const ::testing::TestParamInfo<SceneLaw>& info) { return info.param.first + "_" + info.param.second; });

// A Painleve slip whose jam the polyhedral LCP leaves sliding: compass_gait_3d with mu 0.8 to 1, a
// foot starting to slip at t ~ 0.15 s (and Routh's landing with mu 2). The Anitescu-Potra impact
// without collision leaves the foot sliding with its normal velocity at the virtual approach, and
// the next one is the zero impulse; the sticking impact then brings the touching feet to rest
// (these runs stopped with "no contact forces" before it).
using LawMu = std::pair<std::string, double>;
class PainleveSlipFromRest : public ::testing::TestWithParam<LawMu> {};

TEST_P(PainleveSlipFromRest, IsJammedBySticking) {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/compass_gait_3d.yaml",
                           {parse_override("materials.mu=" + std::to_string(GetParam().second))});
  scene.law = GetParam().first;
  const SceneRun r = simulate(std::move(scene));
  expect_invariants(r);
  EXPECT_DOUBLE_EQ(r.t.back(), r.scene.system.simulation.t_end);
  const std::vector<Event> iwc = of_kind(r, EventKind::iwc);
  const auto sticking = std::count_if(iwc.begin(), iwc.end(), [](const Event& e) { return e.law == "sticking"; });
  EXPECT_GE(sticking, 1);
  for (const Event& e : iwc)
    for (double p : e.impulse_n) EXPECT_GE(p, 0.0) << "t = " << e.t;
}

INSTANTIATE_TEST_SUITE_P(Scenes, PainleveSlipFromRest,
                         ::testing::Values(LawMu{"anitescu-potra", 0.8}, LawMu{"anitescu-potra", 0.9},
                                           LawMu{"anitescu-potra", 1.0}, LawMu{"routh", 2.0}),
                         [](const ::testing::TestParamInfo<LawMu>& info) {
                           return info.param.first.substr(0, 5) + "_mu" + std::to_string(static_cast<int>(info.param.second * 10));
                         });

// compass_gait_3d under the propagative law (frictionless impacts): at t = 0.3335 s the left foot
// slides towards a Painleve configuration, its normal force growing without bound (1.4e7 N as the
// step size fell below machine precision, and the run stopped). The Painleve guard fires while the
// force is large but finite, the slide has no consistent forces there, and an impact without
// collision jams the foot: the run reaches t_end.
TEST(Hybrid, SlideIntoAPainleveConfigurationIsJammed) {
  Scene scene = shipped("compass_gait_3d");
  scene.law = "propagative";
  const SceneRun r = simulate(std::move(scene));
  expect_invariants(r);
  EXPECT_DOUBLE_EQ(r.t.back(), r.scene.system.simulation.t_end);
  const std::vector<Event> iwc = of_kind(r, EventKind::iwc);
  EXPECT_TRUE(std::any_of(iwc.begin(), iwc.end(), [](const Event& e) { return std::abs(e.t - 0.33353) < 1e-4; }));
  for (const Event& e : iwc) {
    EXPECT_LE(e.kinetic_after, e.kinetic_before * (1 + 1e-12)) << "t = " << e.t;
    for (double p : e.impulse_n) EXPECT_GE(p, 0.0) << "t = " << e.t;
  }
}

// box_on_edge: the plate lands across the ridge on the ridge's two end corners (the two edge-face
// contacts of a box on a box's edge) and comes to rest on the side its centre started on.
TEST(Hybrid, BoxOnEdgeLandsOnTheTwoEdgeCornersAndTipsToItsCentresSide) {
  for (double offset : {-0.02, 0.01, 0.03}) {
    Scene scene = shipped("box_on_edge");
    scene.initial.q[0] = offset;
    const SceneRun r = simulate(std::move(scene));
    expect_invariants(r);
    const std::vector<Event> impacts = of_kind(r, EventKind::impact);
    ASSERT_GE(impacts.size(), 2u);
    EXPECT_EQ(contact_names(r, impacts[0].contacts),
              (std::vector<std::string>{"ridge.-x+y+z@plate", "ridge.-x-y+z@plate"}));
    EXPECT_LT(r.v.back().norm(), 1e-9);
    EXPECT_GT(r.q.back()[0] * offset, 0) << "offset " << offset << " final x " << r.q.back()[0];
    // Leaning on the ridge with one short edge on the ground: the plate's centre at
    // 0.4 sin(tilt) + 0.02 cos(tilt) above the ground, tilt from the ridge height.
    EXPECT_GT(r.q.back()[2], 0.1);
  }
}

// The rotation of a free body (q = [x y z qw qx qy qz]) at the run's end: body to world.
Eigen::Matrix3d final_rotation(const SceneRun& r) {
  return Quat(r.q.back()[3], r.q.back()[4], r.q.back()[5], r.q.back()[6]).toRotationMatrix();
}

// The resting height of a box-like body at rest on one of its faces (half extents h), or -1.
double face_height(const SceneRun& r, const Eigen::Vector3d& h) {
  const Eigen::Vector3d up = final_rotation(r).transpose() * Eigen::Vector3d::UnitZ();
  int axis = 0;
  if (std::abs(up.cwiseAbs().maxCoeff(&axis) - 1.0) > 1e-6) return -1;
  return h[axis];
}

// mesh_toss: the bevelled-box mesh comes to rest on a face, and the same throw of its convex hull
// and of the plain box it was cut from rests on the same face.
TEST(Hybrid, MeshTossRestsOnAFaceLikeItsHullAndItsBox) {
  const std::string path = std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/mesh_toss.yaml";
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string mesh = "type: mesh, file: meshes/chamfered_box.obj";
  auto variant = [&](const std::string& shape) {
    std::string t = text;
    t.replace(t.find(mesh), mesh.size(), shape);
    return simulate(load_scene_text(t, path));
  };
  const Eigen::Vector3d h(0.1, 0.075, 0.05);
  const SceneRun runs[] = {run("mesh_toss"), variant(mesh + ", hull: true"), variant("type: box, size: [0.2, 0.15, 0.1]")};
  EXPECT_EQ(runs[0].scene.system.contacts.size(), 24);
  EXPECT_EQ(runs[2].scene.system.contacts.size(), 8);
  // The bevels take 12 edges' prisms (section k^2 / 2, the edge less 2 k long) and 8 corner pieces
  // off the box; of each k-cube at a corner only the tetrahedron u + v + w >= 2 k (k^3 / 6) stays.
  const double k = 0.01, bevel = 4 * 0.5 * k * k * (0.18 + 0.13 + 0.08) + 8 * (5.0 / 6.0) * k * k * k;
  // assimp (Debian's build) reads coordinates as float: about 1e-7 relative.
  EXPECT_NEAR(runs[0].scene.system.model.bodies[0].mass, 800 * (0.2 * 0.15 * 0.1 - bevel), 1e-6);
  for (const SceneRun& r : runs) {
    expect_invariants(r);
    EXPECT_GE(of_kind(r, EventKind::impact).size(), 3u);
    EXPECT_LT(r.v.back().norm(), 1e-6);
    const double z = face_height(r, h);
    EXPECT_GT(z, 0);
    EXPECT_NEAR(r.q.back()[2], z, 1e-6);
    EXPECT_EQ(z, face_height(runs[2], h));
  }
}

bool names_a_rim_point(const SceneRun& r, const Event& e) {
  for (const std::string& name : contact_names(r, e.contacts))
    if (name.find(".rim") != std::string::npos) return true;
  return false;
}

// coin_spin: spun on its rim, the coin rolls and wobbles (back up past 2 cm while rolling), then
// its face slaps flat (an impact on rim points) and it rests at half its thickness, axis vertical.
TEST(Hybrid, CoinSpinRollsOnItsRimAndSettlesFlat) {
  const SceneRun r = run("coin_spin");
  expect_invariants(r);
  EXPECT_EQ(r.scene.system.contacts.size(), 9);
  EXPECT_DOUBLE_EQ(r.t.back(), r.scene.system.simulation.t_end);
  double highest_later = 0;
  for (size_t k = 0; k < r.t.size(); ++k)
    if (r.t[k] > 0.5 && r.t[k] < 2.0) highest_later = std::max(highest_later, r.q[k][2]);
  EXPECT_GT(highest_later, 0.02);
  const std::vector<Event> impacts = of_kind(r, EventKind::impact);
  EXPECT_TRUE(std::any_of(impacts.begin(), impacts.end(), [&](const Event& e) { return names_a_rim_point(r, e); }));
  EXPECT_LT(r.v.back().norm(), 1e-6);
  EXPECT_NEAR(r.q.back()[2], 0.005, 1e-6);
  EXPECT_GT(std::abs(final_rotation(r)(2, 2)), 1 - 1e-9);
  // Its last rocking dies out within a smooth phase (Baumgarte's correction on the four rim
  // points), not at an event: rest is found after a step, well before t_end, and every row after
  // it is the resting state.
  ASSERT_GE(r.events.size(), 2u);
  const Event& rest = r.events.back();
  ASSERT_EQ(rest.kind, EventKind::rest);
  EXPECT_GT(rest.t, r.events[r.events.size() - 2].t + 0.01);
  EXPECT_LT(rest.t, r.scene.system.simulation.t_end - 0.1);
  for (size_t k = 0; k < r.t.size(); ++k) {
    if (r.t[k] <= rest.t) continue;
    EXPECT_EQ(r.q[k], r.q.back()) << "row at t = " << r.t[k];
  }
}

// The Zeno rule's close over the coin's curved contact and the rim point beside it (nearly
// dependent rows) removes 0.0176 J, about 1e5 times what stopping each of its rows alone would;
// over the zeno_block's two independent corners it removes a few times that. Every close removes
// at least the largest single row's share, so at least rowwise_loss / rows.
TEST(Hybrid, ZenoClosesOverNearlyDependentContactsAreFlagged) {
  const SceneRun coin = run("coin_spin");
  const std::vector<Event> closes = of_kind(coin, EventKind::zeno);
  long dependent = 0;
  const Event* pair = nullptr;  // the close over the curved contact and one rim point
  for (const Event& e : closes) {
    if (e.law != "close") continue;
    const double removed = e.kinetic_before - e.kinetic_after;
    EXPECT_GE(e.rowwise_loss, 0.0);
    EXPECT_GE(removed, e.rowwise_loss / (3.0 * static_cast<double>(e.contacts.size())) - 1e-15) << "t = " << e.t;
    if (!closes_dependent_rows(e)) continue;
    ++dependent;
    if (e.contacts.size() == 2 && !pair) pair = &e;
  }
  EXPECT_GE(dependent, 1);
  ASSERT_NE(pair, nullptr);
  EXPECT_EQ(coin.scene.system.contacts.contact(pair->contacts[0]).name, "coin_shape@ground");
  EXPECT_TRUE(names_a_rim_point(coin, *pair));
  EXPECT_GT(pair->kinetic_before - pair->kinetic_after, 0.01);
  EXPECT_GT(pair->kinetic_before - pair->kinetic_after, 1e4 * pair->rowwise_loss);
  const SceneRun block = run("zeno_block");
  int block_closes = 0;
  for (const Event& e : of_kind(block, EventKind::zeno)) {
    if (e.law != "close") continue;
    ++block_closes;
    EXPECT_FALSE(closes_dependent_rows(e));
    EXPECT_LT(e.kinetic_before - e.kinetic_after, 13.0 * e.rowwise_loss);
    EXPECT_GT(e.rowwise_loss, 0.0);
  }
  EXPECT_GE(block_closes, 1);
}

// Under the Routh law (seed 9) the coin rolls flat on its rim before the slap, and the step size
// collapses as its contact point whirls ever faster (Euler's disk). M is well conditioned there,
// so the run steps through instead of stopping (painleve_step: 0 restores the stop), and the face
// still lands. (Whether the law's draws reach the collapse depends on the path to rounding: the
// shipped seed 0 reached it until the slip search took its Jacobian in closed form; seed 9 does
// now, at t = 1.849 s.)
TEST(Hybrid, ACollapsingStepWithAWellConditionedMassIsSteppedThrough) {
  Scene coin = shipped("coin_spin");
  coin.law = "routh";
  coin.seed = 9;
  const SceneRun r = simulate(coin);
  expect_invariants(r);
  EXPECT_DOUBLE_EQ(r.t.back(), r.scene.system.simulation.t_end);
  EXPECT_FALSE(of_kind(r, EventKind::step).empty());
  // Flat on the line between two opposite rim points, it still rocks by a micrometre (1.7e-5 rad/s,
  // 3e-13 J) at t_end.
  EXPECT_LT(r.v.back().norm(), 1e-4);
  EXPECT_NEAR(r.q.back()[2], 0.005, 1e-5);
  EXPECT_GT(std::abs(final_rotation(r)(2, 2)), 1 - 1e-6);

  Scene stops = coin;
  stops.system.contact.painleve_step = 0;
  try {
    simulate(std::move(stops));
    FAIL() << "expected the step to collapse";
  } catch (const SimulationError& e) {
    EXPECT_EQ(e.reason(), StopReason::step_underflow) << e.what();
  }
}

// A shape-pair contact (a cylinder over a box: FCL's GJK) has J_n v = d phi / dt.
TEST(Hybrid, ShapePairContactJacobianIsTheRateOfItsDistance) {
  const Scene s = load_scene_text(R"(
world:
  shapes: [{name: table, type: box, size: [1, 1, 0.2]}]
bodies:
  - name: can
    joint: {type: free}
    density: 100
    shapes: [{name: can_shape, type: cylinder, radius: 0.1, length: 0.3}]
    initial: {x: 0.2, z: 0.5, rpy_deg: [30, 20, 0], vx: 0.3, vz: -1, wx: 2, wy: -1, wz: 0.5}
collide: all
simulation: {t_end: 1}
)", "can.yaml");
  ASSERT_EQ(s.system.contacts.size(), 1);
  EXPECT_EQ(s.system.contacts.contact(0).geometry_a, 0);
  ContactData data(s.system.model, s.system.contacts);
  compute_contact_data(s.system.model, s.system.contacts, s.initial.q, s.initial.v, {}, data);
  const double h = 1e-6;
  auto phi_at = [&](double dt) {
    Eigen::VectorXd q(s.system.model.nq);
    integrate_configuration(s.system.model, s.initial.q, s.initial.v, dt, q);
    Kinematics kin(s.system.model);
    update_kinematics(s.system.model, q, kin);
    return s.system.contacts.frame(kin.R, kin.p, 0).phi;
  };
  const double rate = (phi_at(h) - phi_at(-h)) / (2 * h);
  EXPECT_GT(data.frames[0].phi, 0.05);
  EXPECT_NEAR(data.jac.of(0).row(0).dot(s.initial.v), rate, 1e-5);
}

// A planar block sliding on the ground decelerates at mu g and sticks at t = v0 / (mu g), having
// gone v0^2 / (2 mu g): a slip-to-stick event of both corners.
TEST(Hybrid, SlidingBlockSticksAtTheClosedFormTime) {
  const SceneRun r = simulate(load_scene_text(R"(
world:
  planar: true
  shapes: [{name: ground, type: halfspace, normal: [0, 1, 0]}]
bodies:
  - name: block
    joint: {type: planar}
    mass: 2
    shapes: [{name: body, type: box, size: [0.4, 0.2, 0.1]}]
    initial: {y: 0.1, vx: 2}
materials: {mu: 0.5}
contacts:
  - {name: A, body: block, point: [-0.2, -0.1, 0], with: ground}
  - {name: B, body: block, point: [0.2, -0.1, 0], with: ground}
simulation: {t_end: 1, rtol: 1.0e-10, atol: 1.0e-12}
)", "sliding_block.yaml"));
  expect_invariants(r);
  const double g = 9.81, mu = 0.5, v0 = 2;
  const std::vector<Event> stick = of_kind(r, EventKind::stick);
  ASSERT_EQ(stick.size(), 1u);
  EXPECT_NEAR(stick[0].t, v0 / (mu * g), 1e-9);
  EXPECT_EQ(stick[0].contacts, (std::vector<int>{0, 1}));
  EXPECT_NEAR(r.q.back()[0], v0 * v0 / (2 * mu * g), 1e-8);
  EXPECT_LT(r.v.back().norm(), 1e-8);
  EXPECT_NEAR(r.q.back()[2], 0.0, 1e-9);  // it slid flat, without tipping
}

// A solid ball launched sliding without spin: friction mu m g slows it and spins it up until it
// rolls, at t = 2 v0 / (7 mu g) with speed 5/7 v0 (a slip-to-stick event), then rolls on.
TEST(Hybrid, SlidingBallStartsRollingAtTheClosedFormTime) {
  const SceneRun r = simulate(load_scene_text(R"(
world:
  shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]
bodies:
  - name: ball
    joint: {type: free}
    density: 1000
    shapes: [{name: ball_shape, type: sphere, radius: 0.1}]
    initial: {z: 0.1, vx: 3, vy: 1}
materials: {mu: 0.2}
contacts:
  - {name: ball, shape: ball_shape, with: ground}
simulation: {t_end: 1, rtol: 1.0e-10, atol: 1.0e-12}
)", "rolling_ball.yaml"));
  expect_invariants(r);
  const double g = 9.81, mu = 0.2, v0 = std::sqrt(10.0);
  const std::vector<Event> stick = of_kind(r, EventKind::stick);
  ASSERT_EQ(stick.size(), 1u);
  EXPECT_NEAR(stick[0].t, 2 * v0 / (7 * mu * g), 1e-8);
  const Eigen::Vector3d v_end = r.v.back().head<3>();
  EXPECT_NEAR(v_end.norm(), 5.0 / 7 * v0, 1e-8);
  EXPECT_NEAR(v_end.x() / v_end.y(), 3.0, 1e-8);  // friction acted straight against the slip
  EXPECT_NEAR(r.q.back()[2], 0.1, 1e-9);
}

// A uniform rod (length 2 m, 1 kg) at 30 degrees to the ground, its lower end sliding at 1 m/s.
std::string sliding_rod(double mu, double vx) {
  return R"(
world:
  planar: true
  shapes: [{name: ground, type: halfspace, normal: [0, 1, 0]}]
bodies:
  - name: rod
    joint: {type: planar}
    mass: 1
    inertia: [0.3333333333333333, 0.0001, 0.3333333333333333]
    initial: {y: 0.5, theta_deg: -60, vx: )" + std::to_string(vx) + R"(}
materials: {mu: )" + std::to_string(mu) + R"(}
contacts:
  - {name: end, body: rod, point: [0, -1, 0], with: ground}
simulation: {t_end: 1.5, rtol: 1.0e-10, atol: 1.0e-12}
)";
}

// Painleve: with mu = 3.5 > 2.5, sliding towards the rod's lower side has no consistent contact
// force (1 + 3 cos^2 a - 3 mu sin a cos a < 0 at a = 30 degrees); the loop takes an impact without
// collision, which stops the slip, and goes on.
TEST(Hybrid, PainleveRodTakesAnImpactWithoutCollision) {
  const SceneRun r = simulate(load_scene_text(sliding_rod(3.5, -1.0), "painleve_rod.yaml"));
  expect_invariants(r);
  ASSERT_FALSE(r.events.empty());
  EXPECT_EQ(r.events[0].kind, EventKind::iwc);
  EXPECT_EQ(r.events[0].t, 0.0);
  EXPECT_LT(r.events[0].kinetic_after, r.events[0].kinetic_before);
  EXPECT_DOUBLE_EQ(r.t.back(), 1.5);
}

// The other way the slide is consistent: the end slows and sticks (u_t = 0 there), the rod pivots
// on it, and as it falls the friction it needs grows until it reaches mu lambda_n and it slips.
TEST(Hybrid, SlidingRodSticksThenSlipsAtTheFrictionConesEdge) {
  Scene scene = load_scene_text(sliding_rod(0.5, 1.0), "sliding_rod.yaml");
  const auto law = make_law(scene.law, scene.laws);
  Rng rng(0);
  std::vector<Event> events;
  std::vector<std::pair<Eigen::VectorXd, Eigen::VectorXd>> at_event;  // state just before each event
  RunCallbacks cb;
  cb.event = [&](const Event& e) { events.push_back(e); };
  cb.event_sample = [&](const Sample& s) { at_event.emplace_back(s.q, s.v); };
  simulate_hybrid(scene.system, *law, scene.initial, rng, cb);
  ASSERT_EQ(events.size(), 2u);
  ASSERT_EQ(at_event.size(), 4u);
  EXPECT_EQ(events[0].kind, EventKind::stick);
  EXPECT_EQ(events[1].kind, EventKind::slip);
  const System& sys = scene.system;
  ContactData data(sys.model, sys.contacts);
  compute_contact_data(sys.model, sys.contacts, at_event[0].first, at_event[0].second, {}, data);
  EXPECT_NEAR((data.jac.of(0).row(1) * at_event[0].second)(0), 0.0, 1e-9);  // slip speed zero at the stick event
  compute_contact_data(sys.model, sys.contacts, at_event[2].first, at_event[2].second, {}, data);
  ContactModes stick;
  stick.mode = {ContactMode::stick};
  stick.slip = {Eigen::Vector2d::UnitX()};
  ModeForces forces;
  ASSERT_TRUE(constrained_acceleration(sys.contacts, sys.contact.baumgarte, data.body, data.frames, data.jac, stick, forces));
  EXPECT_GT(forces.lambda_n[0], 0.0);
  EXPECT_NEAR(std::abs(forces.lambda_t(0, 0)), 0.5 * forces.lambda_n[0], 1e-6 * forces.lambda_n[0]);  // on the cone's edge
}

// The event loop's impact set holds every touching contact too: box_wall rising at 1 cm/s (A
// separating) still stops dead under the simultaneous law, as the shipped scene does.
TEST(Hybrid, TheImpactSetHoldsSeparatingTouchingContacts) {
  Scene scene = shipped("box_wall");
  scene.initial.v(1) = 0.01;
  scene.law = "anitescu-potra";
  const SceneRun r = simulate(std::move(scene));
  expect_invariants(r);
  ASSERT_FALSE(r.events.empty());
  EXPECT_EQ(r.events[0].kind, EventKind::impact);
  EXPECT_EQ(r.events[0].contacts, (std::vector<int>{0, 1}));
  EXPECT_LT(r.events[0].kinetic_after, 1e-20);
}

// The unloaded contacts between balls resting in a row log no lift-off (they did, 15 per second, on
// their forces' rounding noise): the first event is the cue ball's impact at 0.05 s.
TEST(Hybrid, RestingNeighboursLogNoLiftOffs) {
  const SceneRun r = simulate(load_scene_text(testing::ball_row_scene(0.2), "ball_row.yaml"));
  expect_invariants(r);
  ASSERT_FALSE(r.events.empty());
  EXPECT_EQ(r.events[0].kind, EventKind::impact);
  EXPECT_NEAR(r.events[0].t, 0.05, 1e-10);
  EXPECT_TRUE(of_kind(r, EventKind::liftoff).empty() || of_kind(r, EventKind::liftoff)[0].t >= 0.05);
}

// sphere_row (100 balls, 201 contacts, nv = 606), to just past the cue ball's impact: under the
// simultaneous law with Newton restitution the row takes the blow as one body of 100 m,
// v_cue = (1 - 100 e) v0 / 101 and v_row = (1 + e) v0 / 101, every ball alike.
TEST(Hybrid, SphereRowTakesTheCueBallAsOneBody) {
  Scene scene = shipped("sphere_row");
  scene.system.simulation.t_end = 0.06;
  const SceneRun r = simulate(std::move(scene));
  expect_invariants(r);
  const std::vector<Event> impacts = of_kind(r, EventKind::impact);
  ASSERT_EQ(impacts.size(), 1u);
  EXPECT_NEAR(impacts[0].t, 0.05, 1e-10);
  const double e = 0.9, v0 = 2.0;
  const Eigen::VectorXd& v = r.v.back();
  EXPECT_NEAR(v(0), (1 - 100 * e) * v0 / 101, 1e-9);
  for (int b = 1; b <= 100; ++b) EXPECT_NEAR(v(6 * b), (1 + e) * v0 / 101, 1e-9) << "ball " << b - 1;
}

// Events restart exactly at the contact: an impact located below the height the ball left from
// would add m g dh per bounce, which at 1 um/s outweighs the (1 - e^2) loss (an earlier 1e-13 m
// guard margin made this ball bounce at 2.3e-6 m/s forever, 100,000 events). With e = 0.8 and
// v_zeno = 1e-6 m/s the ball leaves its 69th impact at v_1 e^69 = 9.1e-7 m/s, below the velocity
// tolerance (1e-6 m/s): the contact closes there and the ball rests.
TEST(Hybrid, SlowBouncesAddNoEnergyAndTheBallRests) {
  std::ifstream file(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/bouncing_ball.yaml");
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  text.replace(text.find("e: 0.9"), 6, "e: 0.8");
  Scene scene = load_scene_text(text, "bouncing_ball_e08.yaml");
  scene.system.contact.v_zeno = 1e-6;
  scene.system.contact.max_events = 1000;
  const SceneRun r = simulate(std::move(scene));
  expect_invariants(r);
  const std::vector<Event> impacts = of_kind(r, EventKind::impact);
  ASSERT_EQ(impacts.size(), 69u);
  const double g = 9.81, e = 0.8, v1 = std::sqrt(2 * g), t1 = std::sqrt(2 / g), m = 1000 * 4.0 / 3 * M_PI * 1e-3;
  EXPECT_NEAR(impacts.back().t, t1 * (1 + 2 * e * (1 - std::pow(e, 68)) / (1 - e)), 1e-9);
  for (const Event& i : impacts) EXPECT_NEAR(i.kinetic_after, e * e * i.kinetic_before, 1e-6 * i.kinetic_before);
  EXPECT_NEAR(std::sqrt(2 * impacts.back().kinetic_after / m), v1 * std::pow(e, 69), 1e-3 * v1 * std::pow(e, 69));
  EXPECT_NEAR(r.q.back()[2], 0.1, 1e-11);
  EXPECT_LT(r.v.back().norm(), 1e-11);
}

// Without the Zeno rule the ball would bounce forever: the event limit stops it with a message
// that names the remedy, never an endless loop.
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
