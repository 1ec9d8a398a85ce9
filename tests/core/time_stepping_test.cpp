// The fixed-step schemes (core/time_stepping.hpp, core/drumwright.hpp) against the papers'
// examples, closed forms and the event-driven loop on the same scenes.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "tests/core/stepping.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

// A planar point mass on a table (contact at its centre, so friction exerts no torque).
Scene block_on_table(double mu, double x0) {
  return load_scene_text(R"(
world:
  gravity: [0, -9.81, 0]
  shapes: [{name: table, type: halfspace, normal: [0, 1, 0]}]
bodies:
  - {name: block, joint: {type: planar}, mass: 1, inertia: [1, 1, 1], initial: {x: )" + std::to_string(x0) + R"(}}
contacts:
  - {name: c, body: block, point: [0, 0, 0], with: table, mu: )" + std::to_string(mu) + R"(}
simulation: {t_end: 10.0, output_interval: 1.0, integrator: time-stepping, time_stepping: {h: 0.01}}
)", "block_on_table.yaml");
}

// A damped slider (m = 0.5 kg, d = 2 N s/m, no gravity): the scheme's explicit damping makes
// v_{k+1} = (1 - h d / m) v_k for both schemes (alpha = 1 and 1/2), so below h = 2 m / d = 0.5 s
// the velocity decays and above it grows; a run with such a step stops at once (unstable_step)
// naming the key, the joint and the step.
TEST(TimeStepping, ExplicitDampingBeyondItsStableStepIsRefused) {
  auto slider = [](double h, const std::string& scheme) {
    return damped_slider("integrator: time-stepping, time_stepping: {h: " + std::to_string(h) +
                         ", scheme: " + scheme + "}");
  };
  for (const std::string scheme : {"anitescu-potra", "trapezoidal"}) {
    EXPECT_LT(std::abs(run(slider(0.45, scheme), Integrator::time_stepping).v.back()[0]), 1e-6) << scheme;
    // Past the check (and with the energy check off, which would stop the growth at its first row).
    EXPECT_GT(largest_speed(run(unchecked(slider(0.55, scheme)), Integrator::time_stepping)), 1e5) << scheme;
  }
  const std::string why = unstable_step_refusal(slider(0.55, "anitescu-potra"));
  EXPECT_NE(why.find("simulation.time_stepping.h"), std::string::npos) << why;
  EXPECT_NE(why.find("'slider'"), std::string::npos) << why;
  EXPECT_NE(why.find("below 0.5 s"), std::string::npos) << why;
  const Scene accepted = slider(0.45, "anitescu-potra");
  const auto law = make_law(accepted.law, accepted.laws);
  Rng rng(1);
  EXPECT_NO_THROW(simulate(accepted.system, *law, accepted.initial, rng, {}));
}

TEST(TimeStepping, Example91TrapezoidalVelocityAlternatesWhileTheWeightedOneIsZero) {
  // Gavrea-Anitescu-Potra §9.1: a joint q = 0 with an inconsistent initial velocity eps.
  Scene s = load_scene_text(R"(
world: {gravity: [0, 0, 0]}
bodies:
  - {name: b, joint: {type: planar}, mass: 1, inertia: [1, 1, 1], initial: {vx: 1.0e-3}}
constraints:
  - {name: joint, type: pin, body: b}
simulation: {t_end: 0.1, integrator: time-stepping, time_stepping: {scheme: trapezoidal, h: 0.01}}
)", "example_9_1.yaml");
  std::vector<double> v, y, x;
  const SteppedRun r = run(s, Integrator::time_stepping, [&](const StepRecord& k) {
    v.push_back(k.v(0));
    y.push_back(k.v_weighted(0));
    x.push_back(k.q(0));
  });
  ASSERT_EQ(v.size(), 10u);
  for (size_t l = 0; l < v.size(); ++l) {
    EXPECT_NEAR(v[l], (l % 2 == 0 ? -1e-3 : 1e-3), 1e-15) << l;  // v^l = (-1)^l eps
    EXPECT_NEAR(y[l], 0.0, 1e-15);
    EXPECT_NEAR(x[l], 0.0, 1e-15);
  }
  EXPECT_NEAR(r.stats.variation_v, 2e-3 * 10, 1e-12);  // 2 eps per step
  EXPECT_NEAR(r.stats.variation_weighted, 1e-3, 1e-12);       // the single drop from eps to 0
}

// §9.2: m = 1, k(t) = 8 cos t along the table, mu = 0.8, q0 = (3, 0), h = 0.01, T = 10 s.
struct StickSlip {
  std::vector<double> x_at_second;
  double variation_v = 0.0, variation_y = 0.0, max_speed = 0.0;
};

StickSlip stick_slip(double alpha) {
  Scene s = block_on_table(0.8, 3.0);
  s.system.time_stepping.alpha = alpha;
  StickSlip out;
  const ExternalForce push = [](double t, const Eigen::VectorXd&, const Eigen::VectorXd&, Eigen::VectorXd& tau) {
    tau(0) = 8 * std::cos(t);
  };
  double v_prev = 0.0, y_prev = 0.0;
  const SteppedRun r = run(s, Integrator::time_stepping, [&](const StepRecord& k) {
    out.variation_v += std::abs(k.v(0) - v_prev);
    out.variation_y += std::abs(k.v_weighted(0) - y_prev);
    out.max_speed = std::max(out.max_speed, std::abs(k.v_weighted(0)));
    v_prev = k.v(0);
    y_prev = k.v_weighted(0);
  }, push);
  for (size_t k = 0; k < r.t.size(); ++k) out.x_at_second.push_back(r.q[k](0));
  return out;
}

TEST(TimeStepping, Example92StickSlipBlockMatchesTheReproduction) {
  // An independent reproduction of Example 9.2 (its numbers are not printed in the paper): x(1),
  // x(4), x(7), x(10) and the total variations; v^l chatters in sticking phases while v^{l,alpha}
  // is zero.
  const StickSlip half = stick_slip(0.5);
  ASSERT_EQ(half.x_at_second.size(), 11u);
  EXPECT_NEAR(half.x_at_second[1], 3.004341, 2e-6);
  EXPECT_NEAR(half.x_at_second[4], 2.991278, 2e-6);
  EXPECT_NEAR(half.x_at_second[7], 3.004300, 2e-6);
  EXPECT_NEAR(half.x_at_second[10], 2.991253, 2e-6);
  EXPECT_NEAR(half.variation_v, 2.156, 2e-3);
  EXPECT_NEAR(half.variation_y, 0.279, 2e-3);
  EXPECT_NEAR(half.max_speed, 0.0396, 1e-4);
  const StickSlip one = stick_slip(1.0);
  EXPECT_NEAR(one.x_at_second[10], 2.991048, 2e-6);
  EXPECT_NEAR(one.variation_v, 0.274, 2e-3);
  EXPECT_NEAR(one.variation_y, one.variation_v, 1e-12);
}

TEST(TimeStepping, InelasticBallComesToRestOnEveryIntegrator) {
  Scene s = shipped("bouncing_ball");
  std::vector<ContactDef> contacts = s.system.contacts.contacts();
  contacts[0].e = 0.0;
  s.system.contacts = ContactModel(s.system.contacts.geometries(), contacts, s.system.model.planar);
  // Drumwright's stiff contact turns the depth d reached inside the step of first touch into an
  // outgoing speed d / h (implicit Euler restores it in one step), so its ball rebounds a few times
  // with a random-looking restitution before it rests; the others stop at the first impact.
  s.system.simulation.t_end = 4.0;
  const double r0 = 0.1, t_impact = std::sqrt(2 * 1.0 / 9.81);
  for (Integrator i : {Integrator::event_driven, Integrator::time_stepping, Integrator::drumwright}) {
    for (double alpha : {1.0, 0.5}) {
      if (i != Integrator::time_stepping && alpha != 1.0) continue;
      s.system.time_stepping.alpha = alpha;
      const SteppedRun r = run(s, i);
      const Eigen::VectorXd& q = r.q.back();
      EXPECT_NEAR(q(2), r0, 1e-6) << integrator_name(i) << " alpha " << alpha;
      if (std::abs(q(2) - r0) > 1e-6)
        for (const Event& e : r.events) ADD_FAILURE() << e.kind << " at " << e.t;
      EXPECT_LT(r.v.back().norm(), 1e-6) << integrator_name(i);
      // Before the impact every integrator follows free fall within its O(h) error.
      const size_t k = static_cast<size_t>(0.4 / s.system.simulation.output_interval);
      EXPECT_NEAR(r.q[k](2), 1.1 - 0.5 * 9.81 * r.t[k] * r.t[k], 0.02) << integrator_name(i);
      if (i == Integrator::time_stepping) {
        ASSERT_EQ(r.events.size(), 1u);
        // Located on the Hermite interpolant of a discrete free fall that is O(h) off.
        EXPECT_NEAR(r.events[0].t, t_impact, 2 * s.system.time_stepping.h);
        EXPECT_LE(r.events[0].kinetic_after, r.events[0].kinetic_before);
      }
    }
  }
}

TEST(TimeStepping, RestingBlockStaysAtRest) {
  Scene s = shipped("rocking_block");
  // Put the block down flat, at rest.
  const int y = 1;
  s.initial.q(y) = s.initial.q(y) - 0.0;  // the scene drops it from its resting height
  s.initial.v.setZero();
  for (Integrator i : {Integrator::event_driven, Integrator::time_stepping, Integrator::drumwright}) {
    const SteppedRun r = run(s, i);
    EXPECT_NEAR(r.q.back()(0), s.initial.q(0), 1e-7) << integrator_name(i);
    EXPECT_NEAR(r.q.back()(2), s.initial.q(2), 1e-7) << integrator_name(i);
    EXPECT_LT(r.v.back().norm(), 1e-6) << integrator_name(i);
  }
}

TEST(TimeStepping, BoxOnInclineWithinOrderH) {
  for (const double mu : {0.0, 0.125, 0.25, 0.375}) {
    const std::string name = "box_on_incline mu " + std::to_string(mu);
    Scene s = box_on_incline(mu);
    const double d = slide_distance(s.system.contacts.contact(0).mu, 1.0);
    for (double h : {0.01, 0.005}) {
      s.system.time_stepping.h = h;
      s.system.drumwright.h = h;
      for (double alpha : {1.0, 0.5}) {
        s.system.time_stepping.alpha = alpha;
        const SteppedRun ts = run(s, Integrator::time_stepping);
        EXPECT_NEAR(travelled(ts), d, 2 * 9.81 * h) << name << " h " << h << " alpha " << alpha;
      }
      const SteppedRun dw = run(s, Integrator::drumwright);
      EXPECT_NEAR(travelled(dw), d, 2 * 9.81 * h) << name << " drumwright h " << h;
    }
  }
}

TEST(TimeStepping, SphereStackStaysStackedOnEveryIntegrator) {
  const Scene s = shipped("sphere_stack");
  for (Integrator i : {Integrator::event_driven, Integrator::time_stepping, Integrator::drumwright}) {
    const SteppedRun r = run(s, i);
    const Eigen::VectorXd& q = r.q.back();
    for (int b = 0; b < 4; ++b) {
      EXPECT_NEAR(q(7 * b), 0.0, 1e-9) << integrator_name(i);
      EXPECT_NEAR(q(7 * b + 1), 0.0, 1e-9) << integrator_name(i);
      EXPECT_NEAR(q(7 * b + 2), 0.1 + 0.2 * b, 1e-6) << integrator_name(i) << " sphere " << b;
    }
    EXPECT_LT(r.v.back().norm(), 1e-5) << integrator_name(i);
  }
}

TEST(TimeStepping, ImpactsNeverAddEnergyAndContactsDoNotSink) {
  for (const char* name : {"sphere_stack", "rocking_block_tilted", "box_wall"}) {
    const Scene s = shipped(name);
    const SteppedRun r = run(s, Integrator::time_stepping);
    ASSERT_FALSE(r.events.empty()) << name;
    for (const Event& e : r.events) EXPECT_LE(e.kinetic_after, e.kinetic_before * (1 + 1e-12) + 1e-15) << name;
    // Inactive contacts are caught at phi = 0 on the interpolant; active ones drift by O(h^2) per step.
    EXPECT_GT(r.stats.min_phi, -1e-4) << name;
    EXPECT_LT(r.stats.max_residual, 1e-9) << name;
  }
}

// The row of dominoes and the sphere pile rest on many contacts; their scenes keep contacts a
// micrometre open in the step's LCP (simulation.time_stepping.active_epsilon), and both run to the
// end with the dominoes toppled in turn as under the event-driven loop. With the paper's active set
// a resting corner cuts every step short as a collision, about a hundred times a step.
TEST(TimeStepping, DominoRowAndSpherePileRunToTheEnd) {
  const Scene dominoes = shipped("dominoes");
  ASSERT_EQ(dominoes.system.time_stepping.active_epsilon, 1e-6);
  const SteppedRun r = run(dominoes, Integrator::time_stepping);
  EXPECT_NEAR(r.t.back(), dominoes.system.simulation.t_end, 1e-9);
  EXPECT_LT(r.stats.max_residual, 1e-9);
  EXPECT_LT(r.events.size(), 2000u);
  for (int d = 0; d < 9; ++d) EXPECT_LT(r.q.back()[3 * d + 2], -1.0) << "domino " << d;  // every one but the last has fallen
  const Scene pile = shipped("sphere_pile");
  const SteppedRun p = run(pile, Integrator::time_stepping);
  EXPECT_NEAR(p.t.back(), pile.system.simulation.t_end, 1e-9);
  EXPECT_GT(p.stats.min_phi, -1e-4);
  EXPECT_LT(p.v.back().norm(), 0.1);
}

// A flat 0.4 x 0.4 x 0.1 m box sliding at 2 m/s on its four corners (mu = 0.3): each velocity step
// takes mu g h off its speed along its own direction, so after 0.3 s it slides at 2 - 0.3 g 0.3 m/s
// whichever way it points. The 8-edge polygon gives that only along its edges (22.5 degrees off
// one, friction mu cos 22.5 deg).
TEST(TimeStepping, ASlidingBoxSlowsAlongItsOwnDirectionInTheCircularCone) {
  for (const char* cone : {"circular", "polygon"})
    for (double degrees : {0.0, 22.5}) {
      const double a = degrees * std::numbers::pi / 180;
      const Scene s = load_scene_text(R"(
world:
  gravity: [0, 0, -9.81]
  shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]
bodies:
  - name: box
    joint: {type: free}
    density: 500
    shapes: [{name: box_shape, type: box, size: [0.4, 0.4, 0.1]}]
    initial: {z: 0.05, vx: )" + std::to_string(2 * std::cos(a)) + ", vy: " + std::to_string(2 * std::sin(a)) + R"(}
materials: {mu: 0.3, e: 0}
collide: [{bodies: [box, world]}]
simulation:
  t_end: 0.3
  output_interval: 0.1
  integrator: time-stepping
  time_stepping: {h: 0.01}
  contact: {friction_cone: )" + cone + R"(}
)", "sliding_box.yaml");
      const SteppedRun r = run(s, Integrator::time_stepping);
      // The initial velocity as the scene text wrote it (six decimals).
      const Eigen::Vector2d v = r.v.back().head<2>(), along = s.initial.v.head<2>().normalized();
      const double expected = s.initial.v.head<2>().norm() - 0.3 * 9.81 * 0.3;
      if (std::string(cone) == "circular" || degrees == 0.0) {
        EXPECT_NEAR(v.dot(along), expected, 1e-6) << cone << " " << degrees;
        EXPECT_NEAR(v.x() * along.y() - v.y() * along.x(), 0.0, 1e-9) << cone << " " << degrees;
      } else {
        EXPECT_GT(v.dot(along), expected + 0.03) << degrees;  // short of mu by 1 - cos 22.5 deg
      }
    }
}

}  // namespace
}  // namespace impactsim
