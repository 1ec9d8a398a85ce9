// Dormand-Prince 5(4) against closed-form solutions.
#include <gtest/gtest.h>

#include <cmath>

#include "core/dopri5.hpp"

namespace impactsim {
namespace {

// y'' = -y as a first-order system: y = (cos t, -sin t).
bool oscillator(double, const Eigen::VectorXd& y, Eigen::VectorXd& dy) {
  dy[0] = y[1];
  dy[1] = -y[0];
  return true;
}

double final_error(double rtol) {
  Dopri5 ode(2, oscillator, {rtol, rtol * 1e-2});
  Eigen::VectorXd y0(2);
  y0 << 1, 0;
  EXPECT_EQ(ode.reset(0, y0), Dopri5::Status::ok);
  while (ode.t() < 10) EXPECT_EQ(ode.step(10.0), Dopri5::Status::ok);
  EXPECT_DOUBLE_EQ(ode.t(), 10.0);
  return std::hypot(ode.y()[0] - std::cos(10.0), ode.y()[1] + std::sin(10.0));
}

TEST(Dopri5, ErrorFollowsTheTolerance) {
  const double e6 = final_error(1e-6), e9 = final_error(1e-9), e12 = final_error(1e-12);
  EXPECT_LT(e6, 1e-5);
  EXPECT_LT(e9, 1e-8);
  EXPECT_LT(e12, 1e-11);
  EXPECT_LT(e12, e9);
  EXPECT_LT(e9, e6);
}

TEST(Dopri5, DenseOutputIsAccurateInsideEveryStep) {
  Dopri5 ode(2, oscillator, {1e-10, 1e-12});
  Eigen::VectorXd y0(2), y(2);
  y0 << 1, 0;
  ode.reset(0, y0);
  double worst = 0;
  int steps = 0;
  while (ode.t() < 5) {
    ASSERT_EQ(ode.step(5.0), Dopri5::Status::ok);
    ++steps;
    for (double s : {0.1, 0.33, 0.5, 0.77, 1.0}) {
      const double t = ode.t_prev() + s * (ode.t() - ode.t_prev());
      ode.dense(t, y);
      worst = std::max(worst, std::hypot(y[0] - std::cos(t), y[1] + std::sin(t)));
    }
  }
  EXPECT_GT(steps, 10);
  EXPECT_LT(worst, 1e-8);  // 4th-order interpolant on 5th-order steps
}

TEST(Dopri5, DenseOutputReproducesTheStepEnds) {
  Dopri5 ode(2, oscillator, {1e-8, 1e-10});
  Eigen::VectorXd y0(2), y(2);
  y0 << 1, 0;
  ode.reset(0, y0);
  ode.step(1.0);
  ode.dense(ode.t(), y);
  EXPECT_LT((y - ode.y()).norm(), 1e-14);
  ode.dense(ode.t_prev(), y);
  EXPECT_LT((y - y0).norm(), 1e-14);
}

// y' = y^2 from y(0) = 1, stepped until its blow-up at t = 1 collapses the step size; the status
// of the last step.
Dopri5 squaring_ode() {
  return Dopri5(1, [](double, const Eigen::VectorXd& y, Eigen::VectorXd& dy) { dy[0] = y[0] * y[0]; return true; },
                {1e-8, 1e-10});
}
Dopri5::Status step_to_blow_up(Dopri5& ode) {
  ode.reset(0, Eigen::VectorXd::Ones(1));
  Dopri5::Status st = Dopri5::Status::ok;
  for (int i = 0; i < 100000 && st == Dopri5::Status::ok && ode.t() < 2; ++i) st = ode.step(2.0);
  return st;
}

TEST(Dopri5, BlowUpEndsInStepUnderflow) {
  Dopri5 ode = squaring_ode();
  EXPECT_EQ(step_to_blow_up(ode), Dopri5::Status::step_underflow);
  EXPECT_NEAR(ode.t(), 1.0, 1e-6);  // it stops at the blow-up time, not past it
}

// After the blow-up's collapse, a restart from a smooth state (y = -1: y' = y^2 decays like
// -1 / (1 + t)) that keeps the collapsed step size underflows at once; one that forgets it steps on.
TEST(Dopri5, ForgettingACollapsedStepLetsTheNextPhaseStep) {
  Dopri5 ode = squaring_ode();
  ASSERT_EQ(step_to_blow_up(ode), Dopri5::Status::step_underflow);
  const double t0 = ode.t();
  const Eigen::VectorXd y = -Eigen::VectorXd::Ones(1);
  ASSERT_EQ(ode.reset(t0, y, true), Dopri5::Status::ok);
  EXPECT_EQ(ode.step(t0 + 1), Dopri5::Status::step_underflow);
  ode.forget_step();
  ASSERT_EQ(ode.reset(t0, y, true), Dopri5::Status::ok);
  for (int i = 0; i < 1000 && ode.t() < t0 + 1; ++i) ASSERT_EQ(ode.step(t0 + 1), Dopri5::Status::ok);
  EXPECT_NEAR(ode.y()[0], -0.5, 1e-7);
}

TEST(Dopri5, FailingRightHandSideIsReportedAtReset) {
  Dopri5 ode(1, [](double, const Eigen::VectorXd&, Eigen::VectorXd&) { return false; }, {});
  EXPECT_EQ(ode.reset(0, Eigen::VectorXd::Zero(1)), Dopri5::Status::rhs_failed);
}

TEST(Dopri5, NonFiniteInitialStateIsRefused) {
  Dopri5 ode(2, oscillator, {});
  Eigen::VectorXd y0(2);
  y0 << std::nan(""), 0;
  EXPECT_EQ(ode.reset(0, y0), Dopri5::Status::not_finite);
}

// Five more steps of each, the same to the bit, with as many evaluations counted.
void expect_same_steps(Dopri5& evaluated, Dopri5& given) {
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(evaluated.step(3.0), Dopri5::Status::ok);
    ASSERT_EQ(given.step(3.0), Dopri5::Status::ok);
    EXPECT_EQ(given.t(), evaluated.t());
    EXPECT_EQ(given.y(), evaluated.y());
  }
  EXPECT_EQ(given.evaluations(), evaluated.evaluations());
}

// A rate the caller evaluated at the start stands for f there: the steps are the same bits, and
// it is counted as an evaluation.
TEST(Dopri5, AGivenStartingRateGivesTheSameSteps) {
  Dopri5 evaluated(2, oscillator, {1e-8, 1e-10}), given(2, oscillator, {1e-8, 1e-10});
  Eigen::VectorXd y0(2), rate(2);
  y0 << 0.3, -0.7;
  oscillator(0.5, y0, rate);
  ASSERT_EQ(evaluated.reset(0.5, y0), Dopri5::Status::ok);
  ASSERT_EQ(given.reset(0.5, y0, rate, false), Dopri5::Status::ok);
  EXPECT_EQ(given.evaluations(), evaluated.evaluations());
  expect_same_steps(evaluated, given);
}

// The same after a step, where the state is replaced (a projection; the event loop's rate at the
// step's end comes from its guards).
TEST(Dopri5, AGivenRateAtAReplacedStateGivesTheSameSteps) {
  Dopri5 evaluated(2, oscillator, {1e-8, 1e-10}), given(2, oscillator, {1e-8, 1e-10});
  Eigen::VectorXd y0(2), y(2), rate(2);
  y0 << 0.3, -0.7;
  ASSERT_EQ(evaluated.reset(0.5, y0), Dopri5::Status::ok);
  ASSERT_EQ(given.reset(0.5, y0), Dopri5::Status::ok);
  ASSERT_EQ(evaluated.step(3.0), Dopri5::Status::ok);
  ASSERT_EQ(given.step(3.0), Dopri5::Status::ok);
  y = evaluated.y().normalized();
  oscillator(evaluated.t(), y, rate);
  ASSERT_EQ(evaluated.set_state(y), Dopri5::Status::ok);
  ASSERT_EQ(given.set_state(y, rate), Dopri5::Status::ok);
  expect_same_steps(evaluated, given);
  rate[1] = std::nan("");
  EXPECT_EQ(given.set_state(y, rate), Dopri5::Status::not_finite);
}

TEST(Dopri5, ANonFiniteGivenRateIsRefused) {
  Dopri5 ode(2, oscillator, {});
  Eigen::VectorXd y0 = Eigen::VectorXd::Zero(2), rate(2);
  rate << 0, std::nan("");
  EXPECT_EQ(ode.reset(0, y0, rate, false), Dopri5::Status::not_finite);
  rate << 0, 1;
  y0[0] = INFINITY;
  EXPECT_EQ(ode.reset(0, y0, rate, false), Dopri5::Status::not_finite);
}

TEST(Dopri5, MaxStepIsRespected) {
  Dopri5 ode(2, oscillator, {1e-6, 1e-8, 0.01});
  Eigen::VectorXd y0(2);
  y0 << 1, 0;
  ode.reset(0, y0);
  while (ode.t() < 1) {
    ode.step(1.0);
    EXPECT_LE(ode.t() - ode.t_prev(), 0.01 + 1e-15);
  }
}

}  // namespace
}  // namespace impactsim
