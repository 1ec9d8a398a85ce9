// Halm and Posa's (§4.3, §5.4) and Seghete and Murphey's (§III Example 1, §VII-A) examples, from the
// shipped scenes, against the papers' numbers and those of an independent re-implementation of the
// papers (numpy, its own Lemke and brute-force LCP enumeration), which the papers do not print.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <set>

#include "core/first_impact.hpp"
#include "core/hybrid.hpp"
#include "impact/anitescu_potra.hpp"
#include "impact/laws.hpp"
#include "impact/propagative.hpp"
#include "impact/routh.hpp"
#include "impact/sequential.hpp"
#include "scenes/scene.hpp"

namespace impactsim {
namespace {

struct PaperImpact {
  Scene scene;
  ImpactState impact;
};

PaperImpact load(const std::string& name) {
  PaperImpact p{load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/" + name + ".yaml"), {}};
  EXPECT_TRUE(find_first_impact(p.scene.system, p.scene.initial, p.impact));
  return p;
}

Eigen::VectorXd vn(const PaperImpact& p, const Eigen::VectorXd& v) { return p.impact.space.J_n * v; }
Eigen::VectorXd vt(const PaperImpact& p, const Eigen::VectorXd& v) { return p.impact.space.J_t * v; }

// Compass gait (§6.2): only A collides; the simultaneous LCP has three solutions, A sticking in all.
TEST(PaperExamples, CompassGaitHasThreeAnitescuPotraSolutions) {
  const PaperImpact p = load("compass_gait");
  const Eigen::VectorXd& v0 = p.impact.v_minus;
  EXPECT_NEAR(vn(p, v0)[0], -0.4891, 1e-4);
  EXPECT_NEAR(vn(p, v0)[1], 0.0, 1e-12);
  EXPECT_NEAR(0.5 * v0.dot(p.impact.space.M * v0), 0.07542, 1e-5);
  const auto all = anitescu_potra_all_solutions(p.impact.space, v0);
  ASSERT_EQ(all.size(), 3u);
  int lift = 0, rest = 0, slide = 0;
  for (const ImpactResult& r : all) {
    const Eigen::VectorXd n = vn(p, r.v_plus), t = vt(p, r.v_plus);
    EXPECT_NEAR(n[0], 0.0, 1e-9);  // A sticks
    EXPECT_NEAR(t[0], 0.0, 1e-9);
    if (n[1] > 1e-6) {
      ++lift;
      EXPECT_NEAR(n[1], 0.0996, 1e-4);
      EXPECT_NEAR(t[1], 0.1980, 1e-4);
      EXPECT_NEAR(r.kinetic_energy_plus, 0.04539, 1e-5);
    } else if (std::abs(t[1]) > 1e-6) {
      ++slide;
      EXPECT_NEAR(t[1], 0.1285, 1e-4);
      EXPECT_NEAR(r.kinetic_energy_plus, 0.02800, 1e-5);
    } else {
      ++rest;
      EXPECT_LT(r.v_plus.norm(), 1e-9);
    }
  }
  EXPECT_EQ(lift, 1);
  EXPECT_EQ(rest, 1);
  EXPECT_EQ(slide, 1);
}

// With a random choice among each step LCP's solutions, the Routh sampler reaches all three classes
// of B (Lemke alone under-samples the sliding branch: Halm and Posa §5.3, Assumption 6).
TEST(PaperExamples, CompassGaitRouthWithRandomSolutionsReachesAllThreeClasses) {
  const PaperImpact p = load("compass_gait");
  RouthSettings s = routh_settings(p.scene.laws.of("routh"));
  s.solution = RouthSettings::Solution::random;
  const RouthImpact routh(p.impact.space, p.impact.v_minus, s);
  std::set<std::string> classes;
  int terminated = 0;
  for (int k = 0; k < 1000; ++k) {
    Rng rng(k);
    const ImpactResult r = routh.draw(rng);
    if (!r.terminated) continue;
    ++terminated;
    const Eigen::VectorXd n = vn(p, r.v_plus), t = vt(p, r.v_plus);
    EXPECT_GE(n.minCoeff(), -1e-8);
    EXPECT_LE(r.kinetic_energy_plus, r.kinetic_energy_minus * (1 + 1e-12));
    EXPECT_LE(n[1], 0.0996 + 1e-4);
    EXPECT_LE(t[1], 0.1980 + 1e-4);
    classes.insert(n[1] > 1e-6 ? "lift" : std::abs(t[1]) > 1e-6 ? "slide" : "rest");
  }
  EXPECT_GT(terminated, 950);
  EXPECT_EQ(classes, (std::set<std::string>{"lift", "rest", "slide"}));
}

// Box and wall (§6.3): rest simultaneously; B then A leaves A sliding at 0.3058 and B leaving the
// wall at 0.1056 (and moving up it at 0.0725: the re-implementation's wall tangent points the other way).
TEST(PaperExamples, BoxAndWall) {
  const PaperImpact p = load("box_wall");
  const Eigen::VectorXd& v0 = p.impact.v_minus;
  EXPECT_NEAR(vn(p, v0)[1], -1.0, 1e-12);
  const auto all = anitescu_potra_all_solutions(p.impact.space, v0);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_LT(all[0].v_plus.norm(), 1e-9);
  SequentialSettings b_first;
  b_first.start = 1;  // contact B
  Rng rng(1);
  const ImpactResult seq = SequentialLaw(b_first).resolve(p.impact.space, v0, rng);
  EXPECT_NEAR(vt(p, seq.v_plus)[0], 0.3058, 1e-4);
  EXPECT_NEAR(vn(p, seq.v_plus)[1], 0.1056, 1e-4);
  EXPECT_NEAR(vt(p, seq.v_plus)[1], 0.0725, 1e-4);
  EXPECT_NEAR(seq.kinetic_energy_plus, 0.03093, 1e-5);
  // The Routh sampler (h = 2, N = 5) gives both behaviours and intermediates between them.
  const RouthImpact routh(p.impact.space, v0, routh_settings(p.scene.laws.of("routh")));
  int rest = 0, slide_lift = 0, intermediate = 0;
  for (int k = 0; k < 3000; ++k) {
    Rng r(k);
    const ImpactResult s = routh.draw(r);
    if (!s.terminated) continue;
    const double a_slide = vt(p, s.v_plus)[0], b_lift = vn(p, s.v_plus)[1];
    if (s.v_plus.norm() < 1e-9) ++rest;
    if (a_slide > 1e-6 && b_lift > 1e-6) ++slide_lift;
    if (a_slide > 0.05 && a_slide < 0.25) ++intermediate;
    EXPECT_LE(b_lift, 0.1056 + 1e-4);
  }
  EXPECT_GT(rest, 100);
  EXPECT_GT(slide_lift, 100);
  EXPECT_GT(intermediate, 0);
}

// The Zeno block (§4.3): first impact at t1 = 0.98733 s with Lambda_n,B = 0.85 N s, speed kept at 0.7
// per corner impact, accumulation near 2.67 s where the Zeno rule's closes end it (each releases
// the lifting corner, so they go on a little past the first, never past 2.6715 s).
TEST(PaperExamples, ZenoBlock) {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/zeno_block.yaml");
  const auto law = make_law(scene.law, scene.laws);
  Rng rng(0);
  std::vector<Event> events;
  RunCallbacks cb;
  cb.event = [&](const Event& e) { events.push_back(e); };
  simulate_hybrid(scene.system, *law, scene.initial, rng, cb);
  std::vector<Event> impacts;
  const Event* zeno = nullptr;  // the first close
  const Event* last = nullptr;
  for (const Event& e : events) {
    if (e.kind == EventKind::impact) impacts.push_back(e);
    if (e.kind == EventKind::zeno && !zeno) zeno = &e;
    if (e.kind == EventKind::zeno) last = &e;
  }
  ASSERT_GE(impacts.size(), 10u);
  EXPECT_NEAR(impacts[0].t, 0.98733, 1e-5);
  EXPECT_NEAR(impacts[0].impulse_n[1], 0.85, 1e-6);
  for (size_t k = 0; k < 10; ++k) EXPECT_NEAR(impacts[k].kinetic_after / impacts[k].kinetic_before, 0.49, 1e-6);
  ASSERT_NE(zeno, nullptr);
  EXPECT_GT(zeno->t, 2.66);
  EXPECT_LT(zeno->t, 2.6714);
  EXPECT_LT(last->t, 2.6715);
}

// RAMone (§6.4, Table 7): the trunk's initial velocity keeps the trailing foot still and equals
// Table 7's (-0.4114, -0.2105); three Anitescu-Potra solutions, the leading foot A stuck in all.
TEST(PaperExamples, RamoneFootfall) {
  const PaperImpact p = load("ramone");
  const Eigen::VectorXd& v0 = p.impact.v_minus;
  EXPECT_NEAR(v0[0], -0.4114, 1e-4);
  EXPECT_NEAR(v0[1], -0.2105, 1e-4);
  EXPECT_NEAR(vn(p, v0)[1], 0.0, 1e-12);  // B stands still
  EXPECT_NEAR(vt(p, v0)[1], 0.0, 1e-12);
  EXPECT_NEAR(vn(p, v0)[0], -0.5321, 1e-4);
  EXPECT_NEAR(0.5 * v0.dot(p.impact.space.M * v0), 1.03505, 1e-5);
  const auto all = anitescu_potra_all_solutions(p.impact.space, v0);
  ASSERT_EQ(all.size(), 3u);
  std::set<std::string> seen;
  for (const ImpactResult& r : all) {
    const Eigen::VectorXd n = vn(p, r.v_plus), t = vt(p, r.v_plus);
    EXPECT_NEAR(n[0], 0.0, 1e-9);  // A stuck
    EXPECT_NEAR(t[0], 0.0, 1e-9);
    if (n[1] > 1e-6) {
      seen.insert("lift");
      EXPECT_NEAR(n[1], 0.0003, 1e-4);
      EXPECT_NEAR(t[1], -0.0274, 1e-4);
      EXPECT_NEAR(r.kinetic_energy_plus, 0.72649, 1e-5);
    } else if (std::abs(t[1]) > 1e-6) {
      seen.insert("slide");
      EXPECT_NEAR(t[1], -0.0195, 1e-4);
      EXPECT_NEAR(r.kinetic_energy_plus, 0.72643, 1e-5);
    } else {
      seen.insert("rest");
      EXPECT_NEAR(r.kinetic_energy_plus, 0.72638, 1e-5);
    }
  }
  EXPECT_EQ(seen, (std::set<std::string>{"lift", "rest", "slide"}));
}

// Disk stack (§6.5, with m = 1 and orthogonal tangents): the simultaneous LCP brings the stack to
// rest; Routh samples always keep one bottom disk on the floor and (all but a few in a thousand)
// the top disk on a bottom one, while the tower may come apart.
TEST(PaperExamples, DiskStack) {
  const PaperImpact p = load("disk_stack");
  const ContactSpace& c = p.impact.space;
  ASSERT_EQ(c.contacts(), 5);
  const auto all = anitescu_potra_all_solutions(c, p.impact.v_minus);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_LT(all[0].v_plus.norm(), 1e-9);
  const RouthImpact routh(c, p.impact.v_minus, routh_settings(p.scene.laws.of("routh")));
  const int samples = 1500;
  int rest = 0, floor_lift = 0, top_alone = 0;
  for (int k = 0; k < samples; ++k) {
    Rng rng(k);
    const ImpactResult r = routh.draw(rng);
    ASSERT_TRUE(r.terminated) << r.diagnostic;
    const Eigen::VectorXd n = c.J_n * r.v_plus;  // A, B floor; C, D top on bottom; E bottom pair
    const auto lifts = [&](int i) { return n[i] > 1e-7; };
    EXPECT_GE(n.minCoeff(), -1e-8);
    EXPECT_FALSE(lifts(0) && lifts(1)) << "both bottom disks left the floor";
    top_alone += lifts(2) && lifts(3);
    floor_lift += lifts(0) || lifts(1);
    rest += r.v_plus.norm() < 1e-7;
    EXPECT_LE(r.kinetic_energy_plus, 0.042 + 1e-3);
    EXPECT_LT(r.lcp_residual, 1e-9);
  }
  // The paper says the top disk always keeps a bottom one; the independent re-implementation saw it
  // in > 99.8 % of samples, and here a few in a thousand leave both (4 of these 1500).
  EXPECT_LE(top_alone, samples / 200);
  EXPECT_GT(floor_lift, samples / 50);   // a bottom disk can lift off the floor (re-implementation: ~9 %)
  EXPECT_GT(rest, samples / 20);         // the whole stack at rest (re-implementation: ~13 %)
  EXPECT_LT(rest, samples / 4);
}

// Billiard break (Seghete and Murphey §VII-A; the re-implementation's values, equal balls, V = 1).
// At theta = 90 degrees the normals are orthogonal: every order gives the same outcome.
TEST(PaperExamples, BilliardBreakAtNinetyDegreesIsUnique) {
  const PaperImpact p = load("billiards_break");
  PropagativeSettings s = propagative_settings(p.scene.laws.of("propagative"));
  s.order = PropagativeSettings::Order::random;
  for (int k = 0; k < 20; ++k) {
    Rng rng(k);
    const ImpactResult r = PropagativeLaw(s).resolve(p.impact.space, p.impact.v_minus, rng);
    Eigen::VectorXd expected(9);
    expected << 0, 0, 0, 0.5, 0.5, 0, 0.5, -0.5, 0;  // cue stops; a, b leave along their lines of centres
    EXPECT_LT((r.v_plus - expected).norm(), 1e-12);
    EXPECT_NEAR(r.impulse_n[0], std::sqrt(0.5), 1e-12);
    EXPECT_NEAR(r.kinetic_energy_plus, r.kinetic_energy_minus, 1e-12);
  }
}

// At theta = 60 degrees the outcome depends on the order: a first or b first, mirror images.
TEST(PaperExamples, BilliardBreakAtSixtyDegreesHasTwoOutcomes) {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/billiards_break.yaml");
  const double half = std::numbers::pi / 6;  // a at +30 degrees, b at -30 degrees from the bisector, 2 m away
  scene.initial.q.segment<2>(3) = Eigen::Vector2d(2 * std::cos(half), 2 * std::sin(half));
  scene.initial.q.segment<2>(6) = Eigen::Vector2d(2 * std::cos(half), -2 * std::sin(half));
  ImpactState impact;
  ASSERT_TRUE(find_first_impact(scene.system, scene.initial, impact));
  PropagativeSettings s = propagative_settings(scene.laws.of("propagative"));
  s.order = PropagativeSettings::Order::random;
  Eigen::VectorXd a_first(9), b_first(9);
  a_first << -0.125, -0.216506, 0, 0.75, 0.433013, 0, 0.375, -0.216506, 0;
  b_first << -0.125, 0.216506, 0, 0.375, 0.216506, 0, 0.75, -0.433013, 0;
  int a = 0, b = 0;
  for (int k = 0; k < 40; ++k) {
    Rng rng(k);
    const ImpactResult r = PropagativeLaw(s).resolve(impact.space, impact.v_minus, rng);
    EXPECT_NEAR(r.kinetic_energy_plus, r.kinetic_energy_minus, 1e-12);
    a += (r.v_plus - a_first).norm() < 1e-5;
    b += (r.v_plus - b_first).norm() < 1e-5;
  }
  EXPECT_EQ(a + b, 40);
  EXPECT_GT(a, 5);
  EXPECT_GT(b, 5);
}

// Newton's cradle: propagative (0, 0, v) with the energy kept to 1e-12; the simultaneous LCP with
// e = 1 gives (-v/3, 2v/3, 2v/3).
TEST(PaperExamples, NewtonsCradle) {
  const PaperImpact p = load("newtons_cradle");
  Rng rng(1);
  const ImpactResult prop = make_law("propagative", p.scene.laws)->resolve(p.impact.space, p.impact.v_minus, rng);
  EXPECT_LT((prop.v_plus - Eigen::Vector3d(0, 0, 1)).norm(), 1e-12);
  EXPECT_NEAR(prop.kinetic_energy_plus, prop.kinetic_energy_minus, 1e-12);
  const ImpactResult ap = AnitescuPotraLaw().resolve(p.impact.space, p.impact.v_minus, rng);
  EXPECT_LT((ap.v_plus - Eigen::Vector3d(-1.0 / 3, 2.0 / 3, 2.0 / 3)).norm(), 1e-12);
  EXPECT_NEAR(ap.kinetic_energy_plus, ap.kinetic_energy_minus, 1e-12);
}

}  // namespace
}  // namespace impactsim
