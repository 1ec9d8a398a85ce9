// The step through an instant with no consistent contact modes: one Anitescu-Potra step, checked
// against its closed forms on the shipped bouncing ball (radius 0.1 m, mu = 0.5).
#include <gtest/gtest.h>

#include <cmath>

#include "core/painleve_step.hpp"
#include "numerics/mass_factor.hpp"
#include "scenes/scene.hpp"

namespace impactsim {
namespace {

constexpr double g = 9.81;

struct Ball {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/bouncing_ball.yaml");
  const System& sys = scene.system;
  ContactData data{sys.model, sys.contacts};
  Eigen::VectorXd q = scene.initial.q;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  double m = sys.model.bodies[0].mass;
  double mu = sys.contacts.contact(0).mu;
  Ball() { q(2) = 0.1; }  // on the ground
};

// At rest on the ground, and at rest 3 um into it, beyond the distance tolerance (1 um): its
// weight's impulse keeps it at rest; the deep one is lifted by the split impulse to half the
// tolerance, phi = -0.5 um, through its position alone: it leaves the step at rest, with no
// kinetic energy gained, in one step.
TEST(PainleveStep, ABallAtRestStaysAtRestOnItsWeight) {
  for (const double depth : {0.0, 3e-6}) {
    Ball b;
    const double tol = b.sys.contact.distance_tolerance, h = 1e-3;
    b.q(2) = 0.1 - depth;
    const PainleveStep s = painleve_step(b.sys, b.q, b.v, h, b.data);
    ASSERT_TRUE(s.ok) << s.diagnostic;
    EXPECT_EQ(s.h, h);
    EXPECT_EQ(s.active, std::vector<int>{0});
    EXPECT_NEAR(s.impulse_n[0], b.m * g * h, 1e-12);
    EXPECT_LT(s.v1.norm(), 1e-12);
    EXPECT_EQ(painleve_step_event(0.0, s, b.v, b.data).kinetic_after, 0.0);
    if (depth < tol) {
      EXPECT_LT((s.q1 - b.q).norm(), 1e-15);
    } else {
      EXPECT_NEAR(s.q1(2) - 0.1, -0.5 * tol, 1e-15);
      EXPECT_LT((s.q1.head(2) - b.q.head(2)).norm(), 1e-15);
    }
  }
}

// A ball 3 um into the ground under a second ball that touches it 0.2 um deep. Lifting the lower
// ball alone to half the tolerance would press the upper one 2.7 um into it, for a step of any
// size, and the step failed at every halving; the upper ball's contact joins the push, and both
// leave the step at half the tolerance, at rest, where they were sideways.
TEST(PainleveStep, APushThatWouldSinkAnotherContactLiftsItToo) {
  const Scene scene = load_scene_text(R"(
world:
  gravity: [0, 0, -9.81]
  shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]
materials: {mu: 0.5, e: 0}
collide: all
simulation: {t_end: 1.0}
bodies:
  - {name: low, joint: {type: free}, density: 1000, shapes: [{name: a, type: sphere, radius: 0.1}], initial: {z: 0.099997}}
  - {name: high, joint: {type: free}, density: 1000, shapes: [{name: b, type: sphere, radius: 0.1}], initial: {z: 0.2999968}}
)",
                                      "stacked_balls");
  const System& sys = scene.system;
  const double tol = sys.contact.distance_tolerance, h = 1e-3;
  ContactData data{sys.model, sys.contacts};
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(sys.model.nv);
  const PainleveStep s = painleve_step(sys, scene.initial.q, v, h, data);
  ASSERT_TRUE(s.ok) << s.diagnostic;
  EXPECT_EQ(s.h, h);
  EXPECT_EQ(s.active.size(), 2u);
  EXPECT_NEAR(s.q1(2), 0.1 - 0.5 * tol, 1e-12);
  EXPECT_NEAR(s.q1(9) - s.q1(2), 0.2 - 0.5 * tol, 1e-12);
  EXPECT_LT(s.v1.norm(), 1e-12);
  EXPECT_LT(std::abs(s.q1(0)) + std::abs(s.q1(1)) + std::abs(s.q1(7)) + std::abs(s.q1(8)), 1e-15);
}

// Sliding along x without spin: the polygon has the direction -x, so friction is exactly
// -mu m g h along x. The ball slows by mu g h, spins up by (5/2) mu g h / r, and its contact
// point slows by (7/2) mu g h.
TEST(PainleveStep, ASlidingBallSlowsByItsFriction) {
  Ball b;
  const double h = 1e-3, r = 0.1;
  b.v(0) = 1.0;
  const PainleveStep s = painleve_step(b.sys, b.q, b.v, h, b.data);
  ASSERT_TRUE(s.ok) << s.diagnostic;
  EXPECT_NEAR(s.impulse_n[0], b.m * g * h, 1e-12);
  EXPECT_NEAR(s.v1(0), 1.0 - b.mu * g * h, 1e-12);
  EXPECT_NEAR(s.v1(2), 0.0, 1e-12);
  EXPECT_NEAR(s.v1.tail(3).norm(), 2.5 * b.mu * g * h / r, 1e-10);
  const ContactJacobians& jac = b.data.jac;
  EXPECT_NEAR((jac.of(0).bottomRows(2) * s.v1).norm(), 1.0 - 3.5 * b.mu * g * h, 1e-10);
  EXPECT_NEAR(s.q1(0), b.q(0) + h * s.v1(0), 1e-15);
  const Event e = painleve_step_event(0.5, s, b.v, b.data);
  EXPECT_EQ(e.kind, EventKind::step);
  EXPECT_EQ(e.t, 0.5);
  EXPECT_EQ(e.law, "time-stepping");
  EXPECT_EQ(e.contacts, std::vector<int>{0});
  EXPECT_NEAR(e.kinetic_before, 0.5 * b.m, 1e-12);
  EXPECT_LT(e.kinetic_after, e.kinetic_before);  // friction dissipates; the weight does no work
}

// A ball above the ground and falling is not in the step's LCP (it does not touch). Where the
// step would carry it past the ground (1 mm above at 100 m/s, 10 cm past in 1 ms; 0.5 mm above at
// 1 m/s, in steps of 1 and 10 ms), its contact joins the step with the room its gap leaves,
// J_n y >= -phi / h: the step keeps its size, the ball arrives at the ground at its end (a
// halfspace: first order is exact) at phi / h, the rest of its approach taken by the normal
// impulse, friction none (nothing slides), and it loses kinetic energy. A step of 0.1 ms leaves
// the slower ball in flight, its contact out of the step.
TEST(PainleveStep, AStepClosesTheOpenContactsItWouldRunPast) {
  struct Case {
    double z, vz, h;
  };
  for (const Case& c : {Case{0.101, -100.0, 1e-3}, Case{0.1005, -1.0, 1e-4}, Case{0.1005, -1.0, 1e-3},
                        Case{0.1005, -1.0, 1e-2}}) {
    Ball b;
    b.q(2) = c.z;
    b.v(2) = c.vz;
    const double phi0 = c.z - 0.1, h = c.h;
    const PainleveStep s = painleve_step(b.sys, b.q, b.v, h, b.data);
    ASSERT_TRUE(s.ok) << s.diagnostic;
    EXPECT_EQ(s.h, h);
    if (phi0 + h * (c.vz - g * h) >= 0) {
      EXPECT_TRUE(s.active.empty());
      EXPECT_NEAR(s.v1(2), c.vz - g * h, 1e-12);
      EXPECT_NEAR(s.q1(2), b.q(2) + h * s.v1(2), 1e-15);
      continue;
    }
    EXPECT_EQ(s.active, std::vector<int>{0}) << h;
    EXPECT_NEAR(s.v1(2), -phi0 / h, 1e-12);
    EXPECT_NEAR(s.impulse_n[0], b.m * (-c.vz + g * h - phi0 / h), 1e-9 * b.m * -c.vz);
    EXPECT_LT(s.impulse_t.norm() + s.v1.head(2).norm() + s.v1.tail(3).norm(), 1e-12);
    EXPECT_NEAR(s.q1(2) - 0.1, 0.0, 1e-15);
    const Event e = painleve_step_event(0.0, s, b.v, b.data);
    EXPECT_LT(e.kinetic_after, e.kinetic_before);
  }
}

// Two balls 1 m apart on the ground, each with its own contact: two islands, each stepped over its
// own velocities, and each step is the one ball's closed form above, whatever the other does.
TEST(PainleveStep, BallsApartAreSteppedIslandByIsland) {
  const Scene scene = load_scene_text(R"(
world:
  gravity: [0, 0, -9.81]
  shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]
bodies:
  - {name: a, joint: {type: free}, density: 1000, shapes: [{name: a_shape, type: sphere, radius: 0.1}], initial: {z: 0.1}}
  - {name: b, joint: {type: free}, density: 1000, shapes: [{name: b_shape, type: sphere, radius: 0.1}], initial: {x: 1, z: 0.1}}
materials: {mu: 0.5, e: 0}
contacts:
  - {name: a, shape: a_shape, with: ground}
  - {name: b, shape: b_shape, with: ground}
simulation: {t_end: 1.0, output_interval: 0.01}
)",
                                      "two_balls");
  const System& sys = scene.system;
  ContactData data{sys.model, sys.contacts};
  Eigen::VectorXd v = Eigen::VectorXd::Zero(12);
  v(0) = 1.0;   // a slides along x
  v(7) = -2.0;  // b along -y
  const double h = 1e-3, r = 0.1, m = sys.model.bodies[0].mass, mu = 0.5;
  const PainleveStep s = painleve_step(sys, scene.initial.q, v, h, data);
  ASSERT_TRUE(s.ok) << s.diagnostic;
  ASSERT_EQ(s.active, (std::vector<int>{0, 1}));
  const ContactIslands islands = contact_islands(data.body, data.jac, s.active);
  EXPECT_EQ(islands.contacts.size(), 2u);
  EXPECT_EQ(s.lcp_variables, 2 * (1 + 8 + 1));  // a small model: each island's polygon LCP first
  EXPECT_NEAR(s.impulse_n[0], m * g * h, 1e-12);
  EXPECT_NEAR(s.impulse_n[1], m * g * h, 1e-12);
  EXPECT_NEAR(s.v1(0), 1.0 - mu * g * h, 1e-12);
  EXPECT_NEAR(s.v1(7), -2.0 + mu * g * h, 1e-12);
  EXPECT_NEAR(s.v1(1), 0.0, 1e-12);
  EXPECT_NEAR(s.v1(6), 0.0, 1e-12);
  EXPECT_NEAR(s.v1(2), 0.0, 1e-12);
  EXPECT_NEAR(s.v1(8), 0.0, 1e-12);
  EXPECT_NEAR(s.v1.segment<3>(3).norm(), 2.5 * mu * g * h / r, 1e-10);
  EXPECT_NEAR(s.v1.segment<3>(9).norm(), 2.5 * mu * g * h / r, 1e-10);
}


// Eleven balls apart on the ground (nv = 66, from kBlockwiseFrom on), each sliding along its own
// direction at its own speed: eleven islands, each solved in the circular cone directly
// (solve_velocity_step_in_cone), and each is the one ball's closed form, the circle's friction
// -mu m g h along its slip: the ball slows by mu g h and spins up by (5/2) mu g h / r.
TEST(PainleveStep, ALargeModelsBallsAreSteppedInTheCircularCone) {
  std::string yaml = R"(
world:
  gravity: [0, 0, -9.81]
  shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]
materials: {mu: 0.5, e: 0}
simulation: {t_end: 1.0, output_interval: 0.01}
bodies:
)";
  std::string contacts = "contacts:\n";
  constexpr int kBalls = 11;
  for (int k = 0; k < kBalls; ++k) {
    const std::string n = std::to_string(k);
    yaml += "  - {name: b" + n + ", joint: {type: free}, density: 1000, shapes: [{name: s" + n +
            ", type: sphere, radius: 0.1}], initial: {x: " + n + ", z: 0.1}}\n";
    contacts += "  - {name: c" + n + ", shape: s" + n + ", with: ground}\n";
  }
  const Scene scene = load_scene_text(yaml + contacts, "eleven_balls");
  const System& sys = scene.system;
  ASSERT_GE(sys.model.nv, kBlockwiseFrom);
  ContactData data{sys.model, sys.contacts};
  Eigen::VectorXd v = Eigen::VectorXd::Zero(sys.model.nv);
  for (int k = 0; k < kBalls; ++k) {
    const double angle = 0.5 * k, speed = 0.5 + 0.1 * k;
    v.segment<2>(6 * k) = speed * Eigen::Vector2d(std::cos(angle), std::sin(angle));
  }
  const double h = 1e-3, r = 0.1, m = sys.model.bodies[0].mass, mu = 0.5;
  const PainleveStep s = painleve_step(sys, scene.initial.q, v, h, data);
  ASSERT_TRUE(s.ok) << s.diagnostic;
  ASSERT_EQ(s.active.size(), static_cast<size_t>(kBalls));
  EXPECT_EQ(s.lcp_variables, 0);  // no island took the polygon's LCP
  for (int k = 0; k < kBalls; ++k) {
    const Eigen::Vector2d u = v.segment<2>(6 * k);
    EXPECT_NEAR(s.impulse_n[k], m * g * h, 1e-12) << k;
    EXPECT_LT((s.v1.segment<2>(6 * k) - (u.norm() - mu * g * h) * u.normalized()).norm(), 1e-12) << k;
    EXPECT_NEAR(s.v1(6 * k + 2), 0.0, 1e-12) << k;
    EXPECT_NEAR(s.v1.segment<3>(6 * k + 3).norm(), 2.5 * mu * g * h / r, 1e-10) << k;
  }
  // Stepped again from the first step's impulses (StepStart): the same closed form, a second
  // mu g h off each slip, and the start holds each contact's impulses, normal then tangents.
  StepStart start;
  const PainleveStep first = painleve_step(sys, scene.initial.q, v, h, data, &start);
  ASSERT_TRUE(first.ok) << first.diagnostic;
  for (int k = 0; k < kBalls; ++k) {
    ASSERT_TRUE(start.known[k]) << k;
    EXPECT_NEAR(start.r[k][0], m * g * h, 1e-12) << k;
    EXPECT_NEAR(start.r[k].tail<2>().norm(), mu * m * g * h, 1e-12) << k;
  }
  const PainleveStep second = painleve_step(sys, first.q1, first.v1, h, data, &start);
  ASSERT_TRUE(second.ok) << second.diagnostic;
  for (int k = 0; k < kBalls; ++k) {
    const Eigen::Vector2d u = v.segment<2>(6 * k);
    EXPECT_LT((second.v1.segment<2>(6 * k) - (u.norm() - 2 * mu * g * h) * u.normalized()).norm(), 1e-12) << k;
    EXPECT_NEAR(second.impulse_n[k], m * g * h, 1e-12) << k;
  }
}

}  // namespace
}  // namespace impactsim
