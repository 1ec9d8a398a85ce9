#pragma once
// What the fixed-step (time-stepping) integrators share: their step records, statistics and the
// rows they write. A step from t_l to t_{l+1} reports rows at the output times it passes, with q
// linear between q^l and q^{l+1} and v the velocity that holds on the step: the continuous-time
// reconstruction (q^{h,alpha}, v^{h,alpha}) of Gavrea, Anitescu and Potra (4.9), (4.12).
#include <functional>
#include <string>
#include <vector>

#include "core/contact_dynamics.hpp"
#include "core/hybrid.hpp"
#include "core/model.hpp"
#include "core/pin.hpp"
#include "core/simulate.hpp"

namespace impactsim {

// Generalized forces added to the model's own (gravity and velocity products), N or N m per entry
// of v, at (t, q, v). For tests and scripted loads; scenes have none.
using ExternalForce = std::function<void(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& tau)>;

// One completed step: end time, q^{l+1}, v^{l+1} and the weighted velocity v^{l+1,alpha} (equal to
// v^{l+1} for alpha = 1 and for Drumwright's scheme).
struct StepRecord {
  double t = 0.0;
  const Eigen::VectorXd& q;
  const Eigen::VectorXd& v;
  const Eigen::VectorXd& v_weighted;
};
using StepSink = std::function<void(const StepRecord&)>;

struct FixedStepStats {
  long steps = 0;
  long impacts = 0;             // collisions found inside steps (time-stepping only)
  long solves = 0;              // LCPs or QPs solved
  double max_residual = 0.0;    // worst LCP residual or QP gap bound
  long samples = 0;
  double min_phi = 0.0;         // deepest penetration at a step's start [m]
  double max_pin_drift = 0.0;   // largest |phi| of a pin row at a step's start [m]
  double variation_v = 0.0;     // total variation of v^l, sum over steps of |v^{l+1} - v^l|_1
  double variation_weighted = 0.0;  // the same of v^{l,alpha}, the sequence the convergence theory bounds
};

// Writes the output rows of a fixed-step run.
class StepOutput {
 public:
  StepOutput(const Model& model, const SimulationSettings& settings, const SampleSink& sink);
  void first(const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  // The step from (t0, q0) to (t1, q1) on which the velocity is v.
  void step(double t0, const Eigen::VectorXd& q0, double t1, const Eigen::VectorXd& q1, const Eigen::VectorXd& v);
  long rows() const { return next_; }

 private:
  void emit(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

  const Model& model_;
  const SimulationSettings& settings_;
  const SampleSink& sink_;
  long next_ = 0, last_ = 0;
  Eigen::VectorXd q_;
};

// What both fixed-step schemes keep, and their loop: run() calls step(hs) with hs = h, the last
// step shortened to end at t_end, until t_end or callbacks.stop.
class FixedStepper {
 public:
  FixedStepper(const Model& model, const ContactModel& contacts, const std::vector<PinDef>& pins,
               const SimulationSettings& settings, const ContactSettings& contact_settings,
               const HybridCallbacks& callbacks, const StepSink& steps, const ExternalForce& force, std::string name);
  virtual ~FixedStepper() = default;
  FixedStepStats run(const State& initial, double h);

 protected:
  // Advances t_, q_, v_ by hs (or less, at a collision).
  virtual void step(double hs) = 0;
  // k = tau(t) - C at the last update of cd_, at (q_, v_).
  void applied_forces(double t, Eigen::VectorXd& k);
  // pin_state_ at (q, v); records the drift.
  void update_pins(const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  // The contacts with phi <= threshold at the last update of cd_; records the deepest phi.
  std::vector<int> touching(double threshold);
  // Jacobians (and with jdot, Jdot v) of the contacts in `set` at the last update of cd_.
  void update_jacobians(const std::vector<int>& set, bool jdot);
  // Ends a step at t1 with (q1, v1) and v_on_step the velocity that held on it (the weighted
  // velocity): writes its rows, adds to the statistics, makes (q1, v1) the state (q1 and v1 are
  // left holding the old state) and reports the step.
  void finish_step(double t1, Eigen::VectorXd& q1, Eigen::VectorXd& v1, const Eigen::VectorXd& v_on_step);

  const Model& model_;
  const ContactModel& contacts_;
  const std::vector<PinDef>& pins_;
  const SimulationSettings& settings_;
  const HybridCallbacks& callbacks_;
  const StepSink& steps_;
  const ExternalForce& force_;
  const std::string name_;
  ContactDynamics cd_;
  Kinematics pin_kin_;
  PinState pin_state_;
  StepOutput output_;
  FixedStepStats stats_;
  double t_ = 0.0;
  Eigen::VectorXd q_, v_, tau_;
  Eigen::VectorXd v_weighted_;  // v^{l,alpha} of the last step (v^0 before the first)
};

}  // namespace impactsim
