#include "core/fixed_step.hpp"

#include <algorithm>
#include <cmath>

#include "core/joint.hpp"

namespace impactsim {

StepOutput::StepOutput(const Model& model, const SimulationSettings& settings, const SampleSink& sink)
    : model_(model), settings_(settings), sink_(sink),
      last_(last_output_row(settings)), q_(model.nq) {}

void StepOutput::emit(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const auto [kinetic, potential] = energies(model_, q, v);
  if (sink_) sink_(Sample{t, q, v, kinetic, potential});
  ++next_;
}

void StepOutput::first(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  next_ = 0;
  emit(0.0, q, v);
}

void StepOutput::step(double t0, const Eigen::VectorXd& q0, double t1, const Eigen::VectorXd& q1,
                      const Eigen::VectorXd& v) {
  const double eps = 1e-9 * (t1 - t0);
  while (next_ <= last_ && output_time(settings_, next_) <= t1 + eps) {
    const double t = output_time(settings_, next_);
    const double s = t1 > t0 ? std::clamp((t - t0) / (t1 - t0), 0.0, 1.0) : 1.0;
    q_ = q0 + s * (q1 - q0);
    normalize_configuration(model_, q_.data());
    emit(t, q_, v);
  }
}

FixedStepper::FixedStepper(const Model& model, const ContactModel& contacts, const std::vector<PinDef>& pins,
                           const SimulationSettings& settings, const ContactSettings& contact_settings,
                           const HybridCallbacks& callbacks, const StepSink& steps, const ExternalForce& force,
                           std::string name)
    : model_(model), contacts_(contacts), pins_(pins), settings_(settings), callbacks_(callbacks), steps_(steps),
      force_(force), name_(std::move(name)), cd_(model, contacts, contact_settings), pin_kin_(model),
      output_(model, settings, callbacks.sample) {}

FixedStepStats FixedStepper::run(const State& initial, double h) {
  q_ = initial.q;
  v_ = initial.v;
  v_weighted_ = v_;
  output_.first(q_, v_);
  while (t_ < settings_.t_end - 1e-9 * h) {
    const double hs = settings_.t_end - t_ < h * (1 + 1e-9) ? settings_.t_end - t_ : h;
    step(hs);
    if (!q_.allFinite() || !v_.allFinite()) throw SimulationError(t_, name_ + ": the state is not finite");
    if (callbacks_.stop && callbacks_.stop()) break;
  }
  stats_.samples = output_.rows();
  return stats_;
}

std::vector<int> FixedStepper::touching(double threshold) {
  std::vector<int> set;
  for (int i = 0; i < contacts_.size(); ++i) {
    const double phi = cd_.frame(i).phi;
    stats_.min_phi = std::min(stats_.min_phi, phi);
    if (phi <= threshold) set.push_back(i);
  }
  return set;
}

void FixedStepper::update_jacobians(const std::vector<int>& set, bool jdot) {
  std::vector<bool> need(contacts_.size(), false);
  for (int i : set) need[i] = true;
  cd_.update_jacobians(need, jdot);
}

void FixedStepper::finish_step(double t1, Eigen::VectorXd& q1, Eigen::VectorXd& v1, const Eigen::VectorXd& v_on_step) {
  output_.step(t_, q_, t1, q1, v_on_step);
  stats_.variation_v += (v1 - v_).lpNorm<1>();
  stats_.variation_weighted += (v_on_step - v_weighted_).lpNorm<1>();
  v_weighted_ = v_on_step;
  ++stats_.steps;
  t_ = t1;
  q_.swap(q1);
  v_.swap(v1);
  if (steps_) steps_(StepRecord{t_, q_, v_, v_weighted_});
}

void FixedStepper::applied_forces(double t, Eigen::VectorXd& k) {
  k = -cd_.C();
  if (!force_) return;
  tau_.setZero(model_.nv);
  force_(t, q_, v_, tau_);
  k += tau_;
}

void FixedStepper::update_pins(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  evaluate_pins(model_, pins_, q, v, pin_kin_, pin_state_);
  stats_.max_pin_drift = std::max(stats_.max_pin_drift, pin_state_.phi.cwiseAbs().maxCoeff());
}

}  // namespace impactsim
