#pragma once
// Adaptive Dormand-Prince 5(4) integrator with the 4th-order continuous extension of Hairer,
// Norsett and Wanner, "Solving ODEs I" (2nd ed.), II.5 and II.6, following their code DOPRI5:
// local extrapolation, FSAL, PI step control. One accepted step at a time, so a caller can inspect
// the dense output of each step (output rows, and the event loop's guard scan and root finding,
// core/event_locate.hpp) before going on.
#include <functional>

#include <Eigen/Core>

namespace impactsim {

struct OdeTolerances {
  double rtol = 1e-8;
  double atol = 1e-10;
  double max_step = 0.0;   // 0: unlimited [s]
  double initial_step = 0.0;  // 0: chosen automatically [s]
};

class Dopri5 {
 public:
  // f(t, y, dy) writes dy = f(t, y); returns false if f cannot be evaluated there.
  using Rhs = std::function<bool(double, const Eigen::VectorXd&, Eigen::VectorXd&)>;
  // rhs_failed: f cannot be evaluated at the state; not_finite: the state or its rate is not finite.
  enum class Status { ok, rhs_failed, step_underflow, not_finite };

  Dopri5(int n, Rhs f, OdeTolerances tol);

  // Starts from (t0, y0). With keep_step the controller's last proposed step is tried first (the
  // hybrid loop restarts after every event, and a flight between impacts is as smooth as the last).
  Status reset(double t0, const Eigen::VectorXd& y0, bool keep_step = false);
  // The same where the caller has evaluated f(t0, y0) already (the event loop's guards find the
  // contact forces at a phase's start): rate is taken as it is and counted as an evaluation.
  Status reset(double t0, const Eigen::VectorXd& y0, const Eigen::VectorXd& rate, bool keep_step);
  // Drops the step size the controller would try next: the next step starts from a fresh estimate,
  // as the first one does. (After a step size that collapsed, keeping it would only collapse again.)
  void forget_step() { step_.h = 0.0; }
  // Takes one accepted step that ends no later than t_limit.
  Status step(double t_limit);
  // Replaces the current state (after a projection) and re-evaluates f there.
  Status set_state(const Eigen::VectorXd& y);
  // The same where the caller has evaluated f there already: rate is taken as it is and counted.
  Status set_state(const Eigen::VectorXd& y, const Eigen::VectorXd& rate);
  // Interpolates within the last accepted step, t_prev() <= t <= t().
  void dense(double t, Eigen::VectorXd& out) const;

  double t() const { return step_.t; }
  double t_prev() const { return step_.t_prev; }
  const Eigen::VectorXd& y() const { return y_; }
  // f at the current state (t(), y()): a step's last stage, or the rate reset or set_state found.
  const Eigen::VectorXd& rate() const { return k_.k1; }
  long accepted() const { return counts_.accepted; }
  long rejected() const { return counts_.rejected; }
  long evaluations() const { return counts_.evaluations; }

 private:
  bool eval(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dy);
  // f at the current state into k1: rhs_failed if f cannot be evaluated, not_finite if y or f(y) is not.
  Status first_rate();
  void restart(double t0, const Eigen::VectorXd& y0, bool keep_step);
  double error_norm(const Eigen::VectorXd& err, const Eigen::VectorXd& y0, const Eigen::VectorXd& y1) const;
  double scaled_norm(const Eigen::VectorXd& x, const Eigen::VectorXd& ref) const;
  double initial_step(double t_limit);

  // The controller's state: where the last step went, and the step to try next.
  struct Step {
    double t = 0.0, t_prev = 0.0, h = 0.0, fac_old = 1e-4;
    bool last_rejected = false;
  };
  struct Counts {
    long accepted = 0, rejected = 0, evaluations = 0;
  };
  // The seven stages' derivatives of the last step (k7 is the next step's k1: FSAL).
  struct Stages {
    explicit Stages(int n) : k1(n), k2(n), k3(n), k4(n), k5(n), k6(n), k7(n) {}
    Eigen::VectorXd k1, k2, k3, k4, k5, k6, k7;
  };
  // The continuous extension's coefficients of the last accepted step.
  struct Dense {
    explicit Dense(int n) : r1(n), r2(n), r3(n), r4(n), r5(n) {}
    Eigen::VectorXd r1, r2, r3, r4, r5;
  };

  const int n_;
  const Rhs f_;
  const OdeTolerances tol_;
  Step step_;
  Counts counts_;
  Eigen::VectorXd y_, y_new_, y_stage_, err_;
  Stages k_;
  Dense dense_;
};

}  // namespace impactsim
