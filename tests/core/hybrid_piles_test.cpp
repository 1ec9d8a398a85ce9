// The event loop on many contacts: piles settling in a bin, stacks pushed sideways, rows of
// dominoes, instants with no consistent modes stepped through, Painleve slides jammed.
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
#include "core/fixed_step.hpp"
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
// exact event path but for the stretches where its collisions, all plastic, come more often than
// a large model's chatter window allows, and a few where its Zeno closes and lift-offs do
// (core/chatter.hpp; 68 steps, 7 ms in all, from `impactsim run`; 3 before plastic collisions
// counted).
TEST(Hybrid, UnloadedContactsRestingAtTheSurfaceStayOpen) {
  const SceneRun r = simulate(load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/tests/scenes/contact/frictionless_pile_20.yaml"));
  expect_invariants(r);
  ASSERT_NEAR(r.t.back(), 1.0, 1e-12);
  const std::vector<Event> steps = of_kind(r, EventKind::step);
  EXPECT_LE(steps.size(), 100u);
  double stepped = 0.0;
  for (const Event& e : steps) stepped += e.duration;
  EXPECT_LT(stepped, 0.02);
  EXPECT_LT(of_kind(r, EventKind::liftoff).size(), 500u);  // 2,643 while they took turns
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
// integrator's steps catches a stall long before the step limit. The impacts use the polygon
// (friction_cone: polygon), whose slips this history is about; in the circular cone the same pile
// takes another path through its chaotic slips, 90,786 steps and 143 s where the polygon's takes
// 24,207 and 29 s (docs/validation.md).
TEST(Hybrid, AFrictionalSpherePileSettles) {
  const SceneRun r = simulate(load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/sphere_pile.yaml",
                                         {parse_override("materials.mu=0.3"),
                                          parse_override("simulation.contact.friction_cone=polygon")}));
  ASSERT_EQ(r.scene.system.contacts.contact(0).mu, 0.3);
  expect_pile_settled_in_the_bin(r, 6);
  EXPECT_FALSE(of_kind(r, EventKind::stick).empty());
  EXPECT_FALSE(of_kind(r, EventKind::slip).empty());
  EXPECT_LT(r.stats.steps, 50000);
}

// Each step's length, from its rows: the state at its start, then at its end, at most h_max later
// (each event logged before it wrote two). No step adds more energy than lifting every body by the
// distance tolerance would (the allowance of the fixed-step schemes' energy check): a step's
// position push lifts contacts it would sink past half the tolerance back up, and the potential
// energy that takes is all a step may gain (a 50-box pile's steps through a cascade of impacts
// gained up to 7e-6 J; without the push none gained, and its contacts sank to -3.9e-6 m).
std::vector<double> step_lengths(const SceneRun& r, double h_max) {
  const double lift = lift_work(r.scene.system.model, r.scene.system.contact.distance_tolerance);
  std::vector<double> out;
  for (const Event& e : r.events) {
    if (e.kind != EventKind::step) continue;
    EXPECT_EQ(e.law, "time-stepping");
    EXPECT_FALSE(e.contacts.empty());
    const SceneRun::EventRow* before = nullptr;
    const SceneRun::EventRow* after = nullptr;
    for (size_t a = 0; a + 1 < r.around.size(); ++a)
      if (r.around[a].t == e.t && r.around[a + 1].t > e.t && r.around[a + 1].t <= e.t + h_max) {
        before = &r.around[a];
        after = &r.around[a + 1];
      }
    EXPECT_TRUE(before && after) << "t = " << e.t;
    if (!before || !after) continue;
    EXPECT_NEAR(before->kinetic, e.kinetic_before, 1e-12);
    EXPECT_LE(after->kinetic + after->potential, before->kinetic + before->potential + lift) << "t = " << e.t;
    out.push_back(after->t - before->t);
  }
  return out;
}

// Where the event loop finds no consistent modes (a few nearly unloaded sliding contacts that
// impacts without collision cannot jam), or its guards fire again and again without a collision (a
// slide from rest whose slip start gave up accelerates against its slip direction: its stick guard
// fired every 1.4e-12 s), Anitescu-Potra steps carry the run on. With painleve_step = 0 the run
// stops there, naming the key: the 10-sphere pile with mu = 0.3 stalls at t = 0.439 s, a stick
// guard firing 300 times in 3e-11 s. By default twelve frictional spheres
// (tests/scenes/contact/frictional_pile_12.yaml) reach t_end through some 800 steps, those of
// chatter that came back in long stretches up to painleve_step_max (core/chatter.hpp). No step adds energy
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
  // One loop over the pile: its rows at events are the steps' ends.
  const SceneRun r = simulate(load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/tests/scenes/contact/frictional_pile_12.yaml",
                                         {parse_override("simulation.island_clocks=false")}));
  const ContactSettings& c = r.scene.system.contact;
  EXPECT_EQ(r.t.back(), r.scene.system.simulation.t_end);
  EXPECT_GE(r.stats.min_phi, -c.distance_tolerance);
  const std::vector<double> h = step_lengths(r, c.painleve_step_max);
  EXPECT_GE(h.size(), 1u);
  EXPECT_GE(std::count_if(h.begin(), h.end(), [&](double x) { return x > 1.5 * c.painleve_step; }), 1);
}

// The 50-body pile of tools/make_box_pile_scene.py finds no consistent modes from t = 0.21 s on:
// every try fails, and its steps grow, three doublings up to painleve_step_max (8e-4 s) by 0.4 s,
// none longer. Each still adds no energy and sinks no contact beyond the distance tolerance.
TEST(Hybrid, StepsGrowWhereTriesAtConsistentModesKeepFailing) {
  const SceneRun r = simulate(load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/tests/scenes/contact/box_pile_50.yaml",
                                         {parse_override("simulation.t_end=0.4"), parse_override("simulation.island_clocks=false")}));
  const ContactSettings& c = r.scene.system.contact;
  ASSERT_EQ(c.painleve_step_max, 8 * c.painleve_step);
  EXPECT_EQ(r.t.back(), 0.4);
  EXPECT_GE(r.stats.min_phi, -c.distance_tolerance);
  const std::vector<double> h = step_lengths(r, c.painleve_step_max);
  const auto longest = std::max_element(h.begin(), h.end());
  ASSERT_NE(longest, h.end());
  EXPECT_NEAR(*longest, c.painleve_step_max, 1e-12);
  EXPECT_GE(std::count_if(h.begin(), h.end(), [&](double x) { return x > 1.5 * c.painleve_step; }), 64);
}

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
// (these runs stopped with "no contact forces" before it). The impacts before it use the polygon
// too (friction_cone: polygon): in the circular cone the feet take paths that do not reach it, and
// so do they where a slow slip holds its friction's direction (slow_slip_speed 0 here).
using LawMu = std::pair<std::string, double>;
class PainleveSlipFromRest : public ::testing::TestWithParam<LawMu> {};

TEST_P(PainleveSlipFromRest, IsJammedBySticking) {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/compass_gait_3d.yaml",
                           {parse_override("materials.mu=" + std::to_string(GetParam().second)),
                            parse_override("simulation.contact.friction_cone=polygon"),
                            parse_override("simulation.contact.slow_slip_speed=0")});
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

// A law that fails every impact, as Lemke can on a large pile's island of 100 contacts.
class FailingLaw : public ImpactLaw {
 public:
  std::string_view name() const override { return "failing"; }
  std::unique_ptr<PreparedImpact> prepare(const ContactSpace&, const Eigen::VectorXd& v_minus) const override {
    struct Failed : PreparedImpact {
      ImpactResult r;
      ImpactResult draw(Rng&) const override { return r; }
    };
    auto out = std::make_unique<Failed>();
    out->r.v_plus = v_minus;
    out->r.ok = false;
    out->r.diagnostic = "no answer";
    return out;
  }
};

// Twelve bodies (72 velocities) dropped 1 cm flat onto the ground land together at t =
// sqrt(2 * 0.01 / g) = 45.15 ms. Where the law fails in a model this large (steps_where_impacts_fail),
// the loop steps through the landing: the run reaches t_end with every body resting on the ground,
// no impact logged, and no contact sunk beyond what a step's h g h allows. With painleve_step = 0
// the failure ends the run at the landing.
TEST(Hybrid, AFailedImpactInALargeModelIsSteppedThrough) {
  Scene scene = load_scene_text(pile_scene(12), "pile",
                                {parse_override("simulation.t_end=0.1"), parse_override("simulation.island_clocks=false")});
  ASSERT_GE(scene.system.model.nv, kBlockwiseFrom);
  const FailingLaw law;
  const SceneRun r = simulate(scene, &law);
  EXPECT_DOUBLE_EQ(r.t.back(), 0.1);
  EXPECT_TRUE(of_kind(r, EventKind::impact).empty());
  const std::vector<Event> steps = of_kind(r, EventKind::step);
  ASSERT_FALSE(steps.empty());
  EXPECT_NEAR(steps.front().t, std::sqrt(2 * 0.01 / 9.81), 1e-6);
  const double h = scene.system.contact.painleve_step;
  EXPECT_GE(r.stats.min_phi, -2 * 9.81 * h * h);
  for (int b = 0; b < 12; ++b) {
    EXPECT_NEAR(r.q.back()[7 * b + 2], 0.05, 1e-4) << "body " << b;
    EXPECT_LT(r.v.back().segment<6>(6 * b).norm(), 1e-3) << "body " << b;
  }
  scene.system.contact.painleve_step = 0;
  try {
    simulate(scene, &law);
    ADD_FAILURE() << "no stop";
  } catch (const SimulationError& e) {
    EXPECT_EQ(e.reason(), StopReason::impact_failed) << e.what();
    EXPECT_NEAR(e.time(), std::sqrt(2 * 0.01 / 9.81), 1e-6);
    EXPECT_NE(std::string(e.what()).find("no answer"), std::string::npos) << e.what();
  }
}

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
}  // namespace
}  // namespace impactsim
