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
  enum class Status { ok, rhs_failed, step_underflow, not_finite };

  Dopri5(int n, Rhs f, OdeTolerances tol);

  // Starts from (t0, y0). With keep_step the controller's last proposed step is tried first (the
  // hybrid loop restarts after every event, and a flight between impacts is as smooth as the last).
  Status reset(double t0, const Eigen::VectorXd& y0, bool keep_step = false);
  // Takes one accepted step that ends no later than t_limit.
  Status step(double t_limit);
  // Replaces the current state (after a projection) and re-evaluates f there.
  Status set_state(const Eigen::VectorXd& y);
  // Interpolates within the last accepted step, t_prev() <= t <= t().
  void dense(double t, Eigen::VectorXd& out) const;

  double t() const { return t_; }
  double t_prev() const { return t_prev_; }
  const Eigen::VectorXd& y() const { return y_; }
  long accepted() const { return accepted_; }
  long rejected() const { return rejected_; }
  long evaluations() const { return evaluations_; }

 private:
  bool eval(double t, const Eigen::VectorXd& y, Eigen::VectorXd& dy);
  double error_norm(const Eigen::VectorXd& err, const Eigen::VectorXd& y0, const Eigen::VectorXd& y1) const;
  double scaled_norm(const Eigen::VectorXd& x, const Eigen::VectorXd& ref) const;
  double initial_step(double t_limit);

  int n_;
  Rhs f_;
  OdeTolerances tol_;
  double t_ = 0.0, t_prev_ = 0.0, h_ = 0.0, fac_old_ = 1e-4;
  bool last_rejected_ = false;
  long accepted_ = 0, rejected_ = 0, evaluations_ = 0;
  Eigen::VectorXd y_, y_new_, y_stage_, err_;
  Eigen::VectorXd k1_, k2_, k3_, k4_, k5_, k6_, k7_;
  Eigen::VectorXd r1_, r2_, r3_, r4_, r5_;  // dense output coefficients of the last step
};

}  // namespace impactsim
