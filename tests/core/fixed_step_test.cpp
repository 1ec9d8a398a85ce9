// What the fixed-step schemes share: rows interpolated at the output times a step passes, the step
// loop's last step shortened to t_end, the statistics each finished step adds.
#include <gtest/gtest.h>

#include <functional>
#include <optional>

#include "core/fixed_step.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

System point_mass(double t_end, double output_interval) {
  System s;
  s.model = testing::single_body_model(JointType::planar, 1.0, Mat3::Identity(), Vec3(0, -9.81, 0));
  s.simulation.t_end = t_end;
  s.simulation.output_interval = output_interval;
  return s;
}

TEST(FixedStep, RowsAreInterpolatedLinearlyInQWithTheStepsVelocity) {
  const System s = point_mass(1.0, 0.1);
  std::vector<double> t, x, vx;
  const SampleSink sink = [&](const Sample& row) {
    t.push_back(row.t);
    x.push_back(row.q(0));
    vx.push_back(row.v(0));
  };
  StepOutput out(s.model);
  out.first(s.model, sink, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  out.step(s.model, s.simulation, sink, 0.0, Eigen::Vector3d::Zero(), 0.25, Eigen::Vector3d(1, 0, 0),
           Eigen::Vector3d(4, 0, 0));
  ASSERT_EQ(t, (std::vector<double>{0.0, 0.1, 0.2}));
  EXPECT_NEAR(x[1], 0.4, 1e-15);
  EXPECT_NEAR(x[2], 0.8, 1e-15);
  EXPECT_EQ(vx[2], 4.0);
  EXPECT_EQ(out.rows(), 3);
}

// A damped slider of mass m: explicit damping maps v to (1 - h d / m) v, stable up to h = 2 m / d.
// Two sliders, one stiffer: the criterion is the largest eigenvalue, and it names that joint.
TEST(FixedStep, ExplicitDampingIsStableUpToTwiceMassOverDamping) {
  Model model = testing::single_body_model(JointType::prismatic, 0.5, Mat3::Identity(), Vec3::Zero());
  model.bodies[0].joint.damping = 2.0;  // h* = 2 * 0.5 / 2 = 0.5 s
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  EXPECT_EQ(explicit_damping_problem(model, q, 0.499), "");
  const std::string why = explicit_damping_problem(model, q, 0.501);
  EXPECT_NE(why.find("'body'"), std::string::npos) << why;
  EXPECT_NE(why.find("below 0.5 s"), std::string::npos) << why;
  model.bodies[0].joint.damping = 0.0;
  EXPECT_EQ(explicit_damping_problem(model, q, 100.0), "");  // no damping, no limit

  Model two;
  for (const char* name : {"soft", "stiff"}) {
    Body b;
    b.name = name;
    b.joint.type = JointType::prismatic;
    b.mass = 1.0;
    b.inertia = Mat3::Identity();
    b.joint.damping = std::string(name) == "soft" ? 1.0 : 40.0;  // h* = 2 s and 0.05 s
    two.bodies.push_back(b);
  }
  finalize_model(two);
  const Eigen::VectorXd q2 = Eigen::VectorXd::Zero(two.nq);
  EXPECT_EQ(explicit_damping_problem(two, q2, 0.0499), "");
  const std::string stiff = explicit_damping_problem(two, q2, 0.0501);
  EXPECT_NE(stiff.find("'stiff'"), std::string::npos) << stiff;
}

TEST(FixedStep, TheLoopEndsExactlyAtTEndAndCountsItsSteps) {
  const System s = point_mass(1.0, 0.5);
  std::vector<double> hs;
  std::vector<double> rows;
  RunCallbacks cb;
  cb.sample = [&](const Sample& row) { rows.push_back(row.t); };
  const StepSink steps;
  // The velocity doubles each step: the work of an applied force, so the energy check stays off.
  const ExternalForce force = [](double, const Eigen::VectorXd&, const Eigen::VectorXd&, Eigen::VectorXd&) {};
  const FixedStepIO io{cb, steps, force};
  const State initial{Eigen::Vector3d::Zero(), Eigen::Vector3d(1, 0, 0)};
  const RunStats stats = run_fixed_steps(s, initial, 0.3, io, Integrator::time_stepping, [&](FixedStepRun& run, double h) {
    hs.push_back(h);
    Eigen::VectorXd q1 = run.q + h * run.v, v1 = 2 * run.v;  // the velocity doubles each step
    const Eigen::VectorXd on_step = v1;
    finish_step(s, io, run, run.t + h, q1, v1, on_step);
  });
  ASSERT_EQ(hs.size(), 4u);
  EXPECT_NEAR(hs.back(), 0.1, 1e-12);
  EXPECT_EQ(stats.steps, 4);
  EXPECT_EQ(rows, (std::vector<double>{0.0, 0.5, 1.0}));
  EXPECT_EQ(stats.samples, 3);
  EXPECT_NEAR(stats.variation_v, 1 + 2 + 4 + 8, 1e-12);  // |v^{l+1} - v^l|_1: 1, 2, 4, 8
  EXPECT_NEAR(stats.variation_weighted, 2 - 1 + 4 - 2 + 8 - 4 + 16 - 8, 1e-12);
}

TEST(FixedStep, ANonFiniteStateStopsTheRun) {
  const System s = point_mass(1.0, 0.5);
  const RunCallbacks cb;
  const StepSink steps;
  const ExternalForce force;
  const FixedStepIO io{cb, steps, force};
  const State initial{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
  try {
    run_fixed_steps(s, initial, 0.1, io, Integrator::time_stepping, [&](FixedStepRun& run, double h) {
      run.t += h;
      run.v(0) = NAN;
    });
    FAIL();
  } catch (const SimulationError& e) {
    EXPECT_EQ(std::string(e.what()), "time-stepping: the state is not finite");
    EXPECT_EQ(e.reason(), StopReason::not_finite);
  }
}

// A failed run hands its last state to `stopped` before the error reaches the caller.
TEST(FixedStep, AFailedRunReportsTheStateWhereItStopped) {
  const System s = point_mass(1.0, 0.5);
  struct Stopped {
    double t;
    Eigen::VectorXd q, v;
  };
  std::optional<Stopped> stopped;
  RunCallbacks cb;
  cb.stopped = [&](const Sample& row) { stopped = Stopped{row.t, row.q, row.v}; };
  const StepSink steps;
  const ExternalForce force;
  const FixedStepIO io{cb, steps, force};
  const State initial{Eigen::Vector3d::Zero(), Eigen::Vector3d(1, 0, 0)};
  EXPECT_THROW(run_fixed_steps(s, initial, 0.25, io, Integrator::time_stepping,
                               [&](FixedStepRun& run, double h) {
                                 if (run.t >= 0.5) throw SimulationError(run.t, StopReason::step_problem_failed, "no");
                                 Eigen::VectorXd q1 = run.q + h * run.v, v1 = run.v;
                                 const Eigen::VectorXd on_step = v1;
                                 finish_step(s, io, run, run.t + h, q1, v1, on_step);
                               }),
               SimulationError);
  ASSERT_TRUE(stopped);
  EXPECT_DOUBLE_EQ(stopped->t, 0.5);
  EXPECT_DOUBLE_EQ(stopped->q(0), 0.5);
}

// A step longer than the whole run is one step to t_end, not none (--step 1e10 once wrote only t = 0).
TEST(FixedStep, AStepLongerThanTheRunIsOneShortStep) {
  const System s = point_mass(1.0, 0.5);
  std::vector<double> hs;
  const RunCallbacks cb;
  const StepSink steps;
  const ExternalForce force;
  const FixedStepIO io{cb, steps, force};
  const State initial{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
  run_fixed_steps(s, initial, 1e10, io, Integrator::time_stepping, [&](FixedStepRun& run, double h) {
    hs.push_back(h);
    Eigen::VectorXd q1 = run.q, v1 = run.v;
    const Eigen::VectorXd on_step = v1;
    finish_step(s, io, run, run.t + h, q1, v1, on_step);
  });
  EXPECT_EQ(hs, (std::vector<double>{1.0}));
}

// A point mass (1 kg, g = 9.81 m/s^2 along -y) moved by `step`, rows every 0.5 s; the run's
// statistics, or the error that stopped it.
struct EnergyRun {
  RunStats stats;
  std::optional<SimulationError> error;
};
using PointMassStep = std::function<void(Eigen::VectorXd& q, Eigen::VectorXd& v)>;  // in place, h = 0.25 s
EnergyRun run_point_mass(const Eigen::Vector3d& v0, const PointMassStep& step,
                         const ExternalForce& force = {}) {
  System s = point_mass(2.0, 0.5);
  s.integrator = Integrator::time_stepping;
  const RunCallbacks cb;
  const StepSink steps;
  const FixedStepIO io{cb, steps, force};
  const State initial{Eigen::Vector3d::Zero(), v0};
  EnergyRun out;
  try {
    out.stats = run_fixed_steps(s, initial, 0.25, io, Integrator::time_stepping, [&](FixedStepRun& run, double h) {
      Eigen::VectorXd q1 = run.q, v1 = run.v;
      step(q1, v1);
      const Eigen::VectorXd on_step = v1;
      finish_step(s, io, run, run.t + h, q1, v1, on_step);
    });
  } catch (const SimulationError& e) {
    out.error = e;
  }
  return out;
}

// Kinetic plus potential energy may rise above the start's by what the system had to move with
// (its kinetic energy at the start, 0.5 J here, and the potential energy lost since) plus the work
// of lifting every body by the distance tolerance (1 kg by 1e-6 m: 9.81e-6 J); beyond that the
// run stops (energy_gain), unless applied forces may have done the work.
TEST(FixedStep, ARunThatGainsMoreEnergyThanItHadStops) {
  const Eigen::Vector3d sideways(1, 0, 0);
  // Exact free fall: energy kept to rounding.
  const EnergyRun fall = run_point_mass(Eigen::Vector3d::Zero(), [](Eigen::VectorXd& q, Eigen::VectorXd& v) {
    const double h = 0.25;
    q(1) += h * v(1) - 0.5 * 9.81 * h * h;
    v(1) -= 9.81 * h;
  });
  EXPECT_FALSE(fall.error);
  EXPECT_LT(fall.stats.max_energy_gain, 1e-12);
  // Speed grows 1.5-fold per step: 0.5 J becomes 1.125 J at the end of the first step, t = 0.25 s,
  // 0.625 J above the start. The check reads every step, not the rows (every 0.5 s here, and a
  // batch run writes only its last), so the run stops there.
  const auto faster = [](Eigen::VectorXd&, Eigen::VectorXd& v) { v *= 1.5; };
  const EnergyRun blows_up = run_point_mass(sideways, faster);
  ASSERT_TRUE(blows_up.error);
  EXPECT_EQ(blows_up.error->reason(), StopReason::energy_gain);
  EXPECT_DOUBLE_EQ(blows_up.error->time(), 0.25);
  const std::string why = blows_up.error->what();
  EXPECT_NE(why.find("rose 0.625 J above the start's, more than the 0.5 J"), std::string::npos) << why;
  EXPECT_NE(why.find("simulation.time_stepping.h"), std::string::npos) << why;
  const ExternalForce pushed = [](double, const Eigen::VectorXd&, const Eigen::VectorXd&, Eigen::VectorXd& tau) { tau(0) = 1; };
  EXPECT_FALSE(run_point_mass(sideways, faster, pushed).error);
  // Lifts within the distance tolerance (pushing contacts out of penetration) are allowed.
  const auto lift = [](double dy) { return [dy](Eigen::VectorXd& q, Eigen::VectorXd&) { q(1) = dy; }; };
  const EnergyRun small_lift = run_point_mass(Eigen::Vector3d::Zero(), lift(0.9e-6));
  EXPECT_FALSE(small_lift.error);
  EXPECT_NEAR(small_lift.stats.max_energy_gain, 9.81 * 0.9e-6, 1e-15);
  EXPECT_TRUE(run_point_mass(Eigen::Vector3d::Zero(), lift(1.1e-6)).error);
}

TEST(FixedStep, TouchingPicksContactsAndRecordsTheDeepest) {
  std::vector<ContactFrame> frames(3);
  frames[0].phi = 0.2;
  frames[1].phi = -1e-4;
  frames[2].phi = 1e-7;
  RunStats stats;
  EXPECT_EQ(touching(frames, 0.0, stats), std::vector<int>{1});
  EXPECT_EQ(touching(frames, 1e-6, stats), (std::vector<int>{1, 2}));
  EXPECT_EQ(stats.min_phi, -1e-4);
  EXPECT_EQ(contact_flags(3, {2, 0}), (std::vector<bool>{true, false, true}));
}

}  // namespace
}  // namespace impactsim
