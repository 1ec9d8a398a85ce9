// The library's entry point: whole smooth simulations against conservation laws and closed forms,
// simulate() running a system under each integrator, and what a system says of itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/dynamics.hpp"
#include "core/system.hpp"
#include "impact/laws.hpp"
#include "scenes/scene.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

Model double_pendulum() {
  Model m;
  for (int i = 0; i < 2; ++i) {
    Body b;
    b.name = i == 0 ? "upper" : "lower";
    b.parent = i - 1;
    b.joint.type = JointType::revolute;
    b.joint.origin = i == 0 ? Vec3::Zero() : Vec3(0, -1, 0);
    b.mass = 1.0;
    b.com = Vec3(0, -1, 0);
    m.bodies.push_back(b);
  }
  m.gravity = Vec3(0, -9.81, 0);
  finalize_model(m);
  return m;
}

TEST(Simulate, DoublePendulumEnergyDriftBelow1e8) {
  const Model m = double_pendulum();
  SimulationSettings s;
  s.t_end = 10;
  s.output_interval = 0.01;
  s.ode = {1e-10, 1e-12};
  State x0{Eigen::Vector2d(2.0, -0.8), Eigen::Vector2d(0.5, 1.0)};
  const auto [K0, U0] = energies(m, x0.q, x0.v);
  const double E0 = K0 + U0;
  ASSERT_GT(std::abs(E0), 1.0);
  double worst = 0, max_speed = 0;
  long rows = 0;
  simulate_smooth(m, s, x0, [&](const Sample& smp) {
    worst = std::max(worst, std::abs(smp.kinetic_energy + smp.potential_energy - E0) / std::abs(E0));
    max_speed = std::max(max_speed, smp.v.cwiseAbs().maxCoeff());
    ++rows;
  });
  EXPECT_EQ(rows, 1001);
  EXPECT_GT(max_speed, 3.0);  // it really swings
  EXPECT_LT(worst, 1e-8);
}

TEST(Simulate, OutputRowsAreAtExactMultiplesOfTheInterval) {
  Model m = double_pendulum();
  SimulationSettings s;
  s.t_end = 0.95;
  s.output_interval = 0.1;
  State x0{Eigen::Vector2d(0.1, 0), Eigen::Vector2d::Zero()};
  std::vector<double> times;
  simulate_smooth(m, s, x0, [&](const Sample& smp) { times.push_back(smp.t); });
  ASSERT_EQ(times.size(), 11u);
  for (int k = 0; k < 10; ++k) EXPECT_DOUBLE_EQ(times[k], k * 0.1);
  EXPECT_DOUBLE_EQ(times.back(), 0.95);
}

TEST(Simulate, TorqueFreeBodyKeepsAngularMomentumAndEnergy) {
  // Three different principal moments, no gravity.
  const Model m = testing::single_body_model(JointType::free, 2.0, Vec3(1.0, 2.0, 3.0).asDiagonal(), Vec3::Zero());
  // Spin near the unstable middle axis, so the body tumbles (the tennis-racket effect).
  State x0{neutral_configuration(m), Eigen::VectorXd(6)};
  x0.v << 0.3, -0.2, 0.1, 0.05, 2.0, 0.05;
  SimulationSettings s;
  s.t_end = 10;
  s.output_interval = 0.05;
  s.ode = {1e-12, 1e-14};
  Kinematics kin(m);
  update_kinematics(m, x0.q, kin);
  update_velocities(m, x0.q, x0.v, kin);
  const Vec6 h0 = spatial_momentum(m, kin);
  const double K0 = kinetic_energy(m, kin);
  double worst_h = 0, worst_K = 0, worst_norm = 0, min_wy = 10;
  simulate_smooth(m, s, x0, [&](const Sample& smp) {
    update_kinematics(m, smp.q, kin);
    update_velocities(m, smp.q, smp.v, kin);
    worst_h = std::max(worst_h, (spatial_momentum(m, kin) - h0).norm() / h0.norm());
    worst_K = std::max(worst_K, std::abs(smp.kinetic_energy - K0) / K0);
    worst_norm = std::max(worst_norm, std::abs(smp.q.segment<4>(3).norm() - 1));
    min_wy = std::min(min_wy, smp.v[4]);
  });
  EXPECT_LT(min_wy, 0.0);  // it flipped over: the test is not of a steady spin
  EXPECT_LT(worst_h, 1e-9);
  EXPECT_LT(worst_K, 1e-9);
  EXPECT_LT(worst_norm, 1e-14);
}

TEST(Simulate, ProjectileFollowsTheClosedForm) {
  std::mt19937 rng(1);
  Model m = testing::free_body_model(rng);
  m.gravity = Vec3(0.5, -1.0, -9.81);
  State x0{neutral_configuration(m), Eigen::VectorXd(6)};
  x0.v << 1.0, 2.0, 5.0, 0.3, -0.4, 1.1;
  SimulationSettings s;
  s.t_end = 2;
  s.output_interval = 0.25;
  s.ode = {1e-11, 1e-13};
  simulate_smooth(m, s, x0, [&](const Sample& smp) {
    const double t = smp.t;
    // The com moves on a parabola whatever the spin; the body origin does not (com != 0 here).
    Kinematics kin(m);
    update_kinematics(m, smp.q, kin);
    Kinematics kin0(m);
    update_kinematics(m, x0.q, kin0);
    update_velocities(m, x0.q, x0.v, kin0);
    const Vec3 c0 = point_position(kin0, 0, m.bodies[0].com);
    const Vec3 cdot0 = point_jacobian(m, kin0, 0, m.bodies[0].com).bottomRows<3>() * x0.v;
    const Vec3 c = point_position(kin, 0, m.bodies[0].com);
    EXPECT_LT((c - (c0 + cdot0 * t + 0.5 * m.gravity * t * t)).norm(), 1e-9) << "t = " << t;
  });
}

TEST(Simulate, PlanarProjectileWithSpin) {
  const Model m = testing::single_body_model(JointType::planar, 1.0, Mat3::Identity() * 0.5, Vec3(0, -9.81, 0));
  State x0{Eigen::Vector3d(0, 1, 0), Eigen::Vector3d(2, 3, 4)};
  SimulationSettings s;
  s.t_end = 1;
  s.output_interval = 0.1;
  s.ode = {1e-11, 1e-13};
  simulate_smooth(m, s, x0, [&](const Sample& smp) {
    const double t = smp.t;
    EXPECT_NEAR(smp.q[0], 2 * t, 1e-10);
    EXPECT_NEAR(smp.q[1], 1 + 3 * t - 0.5 * 9.81 * t * t, 1e-10);
    EXPECT_NEAR(smp.q[2], 4 * t, 1e-10);
    EXPECT_NEAR(smp.v[1], 3 - 9.81 * t, 1e-10);
  });
}

TEST(Simulate, StepLimitRaisesAfterDeliveringEarlierSamples) {
  const Model m = double_pendulum();
  SimulationSettings s;
  s.t_end = 10;
  s.output_interval = 0.01;
  s.max_steps = 20;
  State x0{Eigen::Vector2d(1.0, 0), Eigen::Vector2d::Zero()};
  long rows = 0;
  double last_t = -1;
  try {
    simulate_smooth(m, s, x0, [&](const Sample& smp) { ++rows; last_t = smp.t; });
    FAIL() << "expected a SimulationError";
  } catch (const SimulationError& e) {
    EXPECT_GT(rows, 1);
    EXPECT_GE(e.time(), last_t);
    EXPECT_NE(std::string(e.what()).find("more than 20 steps"), std::string::npos);
  }
}

TEST(System, SimulateRunsTheSystemsIntegrator) {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/box_on_incline.yaml");
  System& sys = scene.system;
  const auto law = make_law("anitescu-potra");
  long rows = 0;
  RunCallbacks cb;
  cb.sample = [&](const Sample&) { ++rows; };
  Rng rng(0);
  const RunStats event = simulate(sys, *law, scene.initial, rng, cb);
  EXPECT_GT(event.evaluations, 0);
  EXPECT_EQ(event.solves, 0);
  EXPECT_EQ(event.samples, rows);
  sys.integrator = Integrator::time_stepping;
  sys.time_stepping.h = 0.01;
  const RunStats stepped = simulate(sys, *law, scene.initial, rng, cb);
  // The box lands corner by corner: each collision ends its step early and costs one more LCP.
  EXPECT_GT(stepped.impacts, 0);
  EXPECT_EQ(stepped.steps, 100 + stepped.impacts);
  EXPECT_EQ(stepped.solves, stepped.steps + stepped.impacts);
  EXPECT_EQ(stepped.evaluations, 0);
  sys.integrator = Integrator::drumwright;
  EXPECT_EQ(simulate(sys, *law, scene.initial, rng, cb).steps, 100);  // drumwright.h = 0.01 by default: no events
  EXPECT_EQ(describe_integrator(sys), "drumwright (lcp, polyhedral cone, h = 0.01 s)");
  sys.integrator = Integrator::time_stepping;
  sys.time_stepping.alpha = 0.5;
  EXPECT_EQ(describe_integrator(sys), "time-stepping (trapezoidal, h = 0.01 s)");
  sys.integrator = Integrator::event_driven;
  EXPECT_EQ(describe_integrator(sys), "event-driven");
  EXPECT_EQ(integrator_name(Integrator::time_stepping), "time-stepping");
}

TEST(System, ClosedContactsAreTouchingAndStill) {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block.yaml");
  Eigen::VectorXd q = scene.initial.q, v = Eigen::VectorXd::Zero(3);
  q(1) = 1.0;  // flat on the ground
  EXPECT_EQ(closed_contacts(scene.system, q, v), (std::vector<bool>{true, true}));
  v(2) = 0.3;  // pivoting about the centre: one corner rises, the other sinks
  EXPECT_EQ(closed_contacts(scene.system, q, v), (std::vector<bool>{false, false}));
  q(1) = 1.01;  // lifted 1 cm
  EXPECT_EQ(closed_contacts(scene.system, q, Eigen::VectorXd::Zero(3)), (std::vector<bool>{false, false}));
}

// A block 5 m inside the ground is refused before any step, not launched to 34 m by the solver.
TEST(System, ADeepInitialPenetrationIsRefused) {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block.yaml");
  Eigen::VectorXd q = scene.initial.q;
  q(1) = -4.0;  // the corners 5 m deep
  const std::optional<Penetration> p = initial_penetration(scene.system, q);
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->depth, 5.0, 1e-12);
  q(1) = 1.0 - 5 * scene.system.contact.distance_tolerance;  // within the tolerance
  EXPECT_FALSE(initial_penetration(scene.system, q));
  const auto law = make_law("anitescu-potra");
  Rng rng(0);
  State deep = scene.initial;
  deep.q(1) = -4.0;
  try {
    simulate(scene.system, *law, deep, rng, {});
    FAIL() << "a deep start must be refused";
  } catch (const SimulationError& e) {
    EXPECT_EQ(e.reason(), StopReason::initial_penetration);
    EXPECT_NE(std::string(e.what()).find("starts 5 m deep"), std::string::npos) << e.what();
  }
}

// closed_contacts and initial_penetration read only the contacts the broadphase finds near; on a
// pile (95 contacts, most of them between spheres far apart) they must give what every contact's
// exact frame and Jacobian give.
TEST(System, ClosedAndPenetratingContactsOfAPileAreThoseOfEveryContact) {
  const Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/sphere_pile.yaml");
  const System& sys = scene.system;
  Eigen::VectorXd q = scene.initial.q;
  auto position = [&](int sphere) { return q.segment(7 * sphere, 3); };
  const double r = 0.05;
  position(0).z() = r;                                            // on the ground
  position(4) = position(0) + Vec3(0, 0, 2 * r);                  // on sphere 0
  position(2).x() = 0.125 - r + 0.01;                             // 1 cm into the east wall
  position(3) = position(2) + Vec3(-2 * r + 0.02, 0, 0);          // 2 cm into sphere 2
  const double tol = sys.contact.distance_tolerance;
  for (int trial = 0; trial < 3; ++trial) {
    Eigen::VectorXd v = Eigen::VectorXd::Zero(sys.model.nv);
    if (trial == 1) v.segment(6 * 4, 3) = Vec3(0, 0, -0.2);  // sphere 4 falls onto sphere 0
    if (trial == 2) v.setRandom();
    ContactData every(sys.model, sys.contacts);
    compute_contact_data(sys.model, sys.contacts, q, v, {}, every);
    std::vector<bool> closed(sys.contacts.size());
    std::optional<Penetration> deepest;
    for (int i = 0; i < sys.contacts.size(); ++i) {
      closed[i] = every.frames[i].phi <= tol &&
                  std::abs(every.jac.normal_velocity(i, v)) <= 1e-6 * std::max(1.0, v.cwiseAbs().maxCoeff());
      const double depth = -every.frames[i].phi;
      if (depth > kStartDepthTolerance * tol && (!deepest || depth > deepest->depth)) deepest = Penetration{i, depth};
    }
    EXPECT_EQ(closed_contacts(sys, q, v), closed) << "trial " << trial;
    if (trial == 0) {
      EXPECT_GE(std::count(closed.begin(), closed.end(), true), 2);  // sphere 0 on the ground, 4 on 0
    }
    const std::optional<Penetration> p = initial_penetration(sys, q);
    ASSERT_TRUE(p && deepest);
    EXPECT_EQ(p->contact, deepest->contact);
    EXPECT_EQ(p->depth, deepest->depth);
    EXPECT_NEAR(p->depth, 0.02, 1e-12);  // spheres 2 and 3
  }
}

TEST(System, BudgetsBoundRowsAndFixedSteps) {
  System s;
  s.simulation.t_end = 1;
  s.simulation.output_interval = 1e-9;
  EXPECT_NE(budget_problem(s).find("1e+09 output rows"), std::string::npos) << budget_problem(s);
  s.simulation.output_interval = 0.01;
  EXPECT_EQ(budget_problem(s), "");
  s.integrator = Integrator::time_stepping;
  s.time_stepping.h = 1e-300;
  EXPECT_NE(budget_problem(s).find("more than simulation.max_steps"), std::string::npos) << budget_problem(s);
  s.time_stepping.h = 1e-7;  // 1e7 steps: exactly the default budget
  EXPECT_EQ(budget_problem(s), "");
}

}  // namespace
}  // namespace impactsim
