// The event loop on 3-D bodies thrown and dropped: cubes and meshes tumbling to rest on a face,
// stacks, a plate across an edge, a coin rolling on its rim and slapping flat.
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
// are now brought to rest at the event: each cube rests on a face at t_end after a few events
// (up to 63 since the Zeno rule's closes release corners they would pull on: a cube rocking down
// onto a face then takes a plastic close per rock).
TEST(Hybrid, CubeTossSlowSlipsAreBroughtToRest) {
  for (const std::uint64_t index : {2896, 3056, 3257, 3268, 6777, 8564}) {
    const SceneRun r = cube_toss_run_resting_on_a_face(index);
    EXPECT_LT(r.events.size(), 100u) << "run " << index;
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


// box_stack (automatic contacts): each box lands flat on the one below, its four bottom corners
// at once, and the column ends at rest, stacked, each box on the top face of the one below.
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

// coin_spin: spun on its rim, the coin rolls and wobbles (back up past 2 cm while rolling), its
// rim points touching, slipping and closing, and loses energy all the while (Euler's disk). It
// used to slap flat at 3.32 s after a Zeno close over its curved contact and the rim point beside
// it that pulled with -207 N s against +207 N s (nearly dependent rows) and removed 0.018 J at
// once; the closes push only now, and at t_end it still rolls with a third of its energy.
TEST(Hybrid, CoinSpinRollsOnItsRimLosingEnergy) {
  const SceneRun r = run("coin_spin");
  expect_invariants(r);
  EXPECT_EQ(r.scene.system.contacts.size(), 9);
  EXPECT_DOUBLE_EQ(r.t.back(), r.scene.system.simulation.t_end);
  double highest_later = 0;
  for (size_t k = 0; k < r.t.size(); ++k)
    if (r.t[k] > 0.5 && r.t[k] < 2.0) highest_later = std::max(highest_later, r.q[k][2]);
  EXPECT_GT(highest_later, 0.02);
  const std::vector<Event> closes = of_kind(r, EventKind::zeno);
  EXPECT_TRUE(std::any_of(closes.begin(), closes.end(), [&](const Event& e) { return names_a_rim_point(r, e); }));
  for (const Event& e : r.events)
    for (double p : e.impulse_n) EXPECT_GE(p, 0.0) << "t = " << e.t;
  for (size_t k = 1; k < r.energy.size(); ++k) EXPECT_LE(r.energy[k], r.energy[k - 1] + 1e-9) << "t = " << r.t[k];
  EXPECT_LT(r.energy.back(), 0.4 * r.energy.front());
  EXPECT_GT(r.q.back()[2], 0.005 + 1e-3);  // not flat yet
}

// The Zeno rule's close over a coin's curved contact and the rim point beside it (nearly dependent
// rows): its normal impulses push, but its friction impulses can still come in large opposite
// pairs, and remove far more than stopping each row alone would (closes_dependent_rows flags it).
// The shipped coin has none such; tilted 15 degrees it has one, 0.0037 J at t = 0.6006 s, 3.45e8
// times its rows' share. Over the zeno_block's two independent corners a close removes a few times
// that share. Every close removes at least the largest single row's share, rowwise_loss / rows.
// The tilted coin's close was found with every slide following its slip (slow_slip_speed 0).
TEST(Hybrid, ZenoClosesOverNearlyDependentContactsAreFlagged) {
  std::vector<SceneOverride> tilted;
  for (const char* o : {"bodies[0].initial.z=0.01784058138657138", "bodies[0].initial.rpy_deg=[15,0,0]",
                        "bodies[0].initial.wy=5.176380902050415", "bodies[0].initial.wz=19.318516525781366",
                        "simulation.contact.slow_slip_speed=0"})
    tilted.push_back(parse_override(o));
  const Scene coin_scenes[] = {shipped("coin_spin"), load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/coin_spin.yaml", tilted)};
  for (int expected : {0, 1}) {
    const SceneRun coin = simulate(coin_scenes[expected]);
    int dependent = 0;
    for (const Event& e : of_kind(coin, EventKind::zeno)) {
      if (e.law != "close") continue;
      const double removed = e.kinetic_before - e.kinetic_after;
      EXPECT_GE(e.rowwise_loss, 0.0);
      EXPECT_GE(removed, e.rowwise_loss / (3.0 * static_cast<double>(e.contacts.size())) - 1e-15) << "t = " << e.t;
      for (double p : e.impulse_n) EXPECT_GE(p, 0.0) << "t = " << e.t;
      if (!closes_dependent_rows(e)) continue;
      ++dependent;
      EXPECT_EQ(coin.scene.system.contacts.contact(e.contacts[0]).name, "coin_shape@ground");
      EXPECT_TRUE(names_a_rim_point(coin, e));
      EXPECT_GT(removed, 1e4 * e.rowwise_loss);
    }
    EXPECT_EQ(dependent, expected);
  }
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

// Under the Routh law (seed 5) the coin, spun tilted 9 degrees, rolls flat on its rim before the
// slap, and the step size collapses as its contact point whirls ever faster (Euler's disk), at
// t = 2.6364 s. M is well conditioned there, so the run steps through instead of stopping
// (painleve_step: 0 restores the stop), and the face still lands. (Whether a run reaches the
// collapse depends on its path to rounding: the shipped coin under seed 9 reached it until the
// Zeno rule's closes stopped pulling, and seed 7 until slips from rest took the cone's answer.)
// (Found with every slide following its slip: slow_slip_speed 0.)
TEST(Hybrid, ACollapsingStepWithAWellConditionedMassIsSteppedThrough) {
  std::vector<SceneOverride> tilted;
  for (const char* o : {"bodies[0].initial.z=0.012830164954987233", "bodies[0].initial.rpy_deg=[9,0,0]",
                        "bodies[0].initial.wy=3.1286893008046173", "bodies[0].initial.wz=19.753766811902757",
                        "simulation.contact.slow_slip_speed=0"})
    tilted.push_back(parse_override(o));
  Scene coin = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/coin_spin.yaml", tilted);
  coin.law = "routh";
  coin.seed = 5;
  const SceneRun r = simulate(coin);
  expect_invariants(r);
  EXPECT_DOUBLE_EQ(r.t.back(), r.scene.system.simulation.t_end);
  EXPECT_FALSE(of_kind(r, EventKind::step).empty());
  // Flat at t_end, at rest.
  EXPECT_LT(r.v.back().norm(), 1e-6);
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
}  // namespace
}  // namespace impactsim
