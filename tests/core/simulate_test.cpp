// The library's entry point: whole smooth simulations against conservation laws and closed forms,
// and simulate() running a system under each integrator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/dynamics.hpp"
#include "core/simulate.hpp"
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

TEST(Simulate, RunsTheSystemsIntegrator) {
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
}

// Issue 62, item 6: gravity of 1e308 (the scene loader now bounds it) ran to status ok with an
// infinite kinetic energy in the rows. Whatever a system's scale, no row delivered is not finite.
TEST(Simulate, AStateThatOverflowsStopsTheRunBeforeItsRow) {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block.yaml");
  scene.system.model.gravity = Vec3(0, 1e308, 0);
  const auto law = make_law("anitescu-potra");
  long rows = 0, not_finite = 0;
  RunCallbacks cb;
  cb.sample = [&](const Sample& row) {
    ++rows;
    if (!row.q.allFinite() || !row.v.allFinite() || !std::isfinite(row.kinetic_energy) ||
        !std::isfinite(row.potential_energy))
      ++not_finite;
  };
  cb.stopped = cb.sample;
  Rng rng(0);
  try {
    simulate(scene.system, *law, scene.initial, rng, cb);
    FAIL() << "ran to the end";
  } catch (const SimulationError& e) {
    EXPECT_EQ(e.reason(), StopReason::not_finite) << e.what();
    EXPECT_NE(std::string(e.what()).find("is not finite"), std::string::npos) << e.what();
  }
  EXPECT_GE(rows, 1);  // the first row, at rest, is finite
  EXPECT_EQ(not_finite, 0);
}

}  // namespace
}  // namespace impactsim
