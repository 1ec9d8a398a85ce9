#include "core/time_stepping.hpp"

#include <algorithm>
#include <cmath>

#include "core/joint.hpp"
#include "impact/velocity_step.hpp"

namespace impactsim {
namespace {

class TimeStepper {
 public:
  TimeStepper(const Model& model, const ContactModel& contacts, const std::vector<PinDef>& pins,
              const SimulationSettings& settings, const ContactSettings& contact_settings,
              const TimeSteppingSettings& scheme, const HybridCallbacks& callbacks, const StepSink& steps,
              const ExternalForce& force)
      : model_(model), contacts_(contacts), pins_(pins), settings_(settings), scheme_(scheme),
        callbacks_(callbacks), steps_(steps), force_(force), cd_(model, contacts, contact_settings),
        pin_kin_(model), output_(model, settings, callbacks.sample) {}

  FixedStepStats run(const State& initial) {
    q_ = initial.q;
    v_ = initial.v;
    y_prev_ = v_;
    output_.first(q_, v_);
    const double h = scheme_.h, eps_t = 1e-9 * h;
    while (t_ < settings_.t_end - eps_t) {
      const double hs = settings_.t_end - t_ < h * (1 + 1e-9) ? settings_.t_end - t_ : h;
      step(hs);
      if (!q_.allFinite() || !v_.allFinite()) throw SimulationError(t_, "time-stepping: the state is not finite");
      if (callbacks_.stop && callbacks_.stop()) break;
    }
    stats_.samples = output_.rows();
    return stats_;
  }

 private:
  void forces(double t, Eigen::VectorXd& k) {
    k = -cd_.C();
    if (!force_) return;
    tau_.setZero(model_.nv);
    force_(t, q_, v_, tau_);
    k += tau_;
  }

  // The contacts with phi <= threshold at the last update_dynamics.
  std::vector<int> touching(double threshold) {
    std::vector<int> set;
    for (int i = 0; i < contacts_.size(); ++i) {
      const double phi = cd_.frame(i).phi;
      stats_.min_phi = std::min(stats_.min_phi, phi);
      if (phi <= threshold) set.push_back(i);
    }
    return set;
  }

  VelocityStep solve(const std::vector<int>& set, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const Eigen::VectorXd& b) {
    std::vector<bool> need(contacts_.size(), false);
    for (int i : set) need[i] = true;
    cd_.update_jacobians(need, false);
    const ContactSpace space = cd_.contact_space(set);
    Eigen::MatrixXd nu(0, model_.nv);
    if (!pins_.empty()) {
      evaluate_pins(model_, pins_, q, v, pin_kin_, pin_state_);
      nu = pin_state_.G;
      stats_.max_pin_drift = std::max(stats_.max_pin_drift, pin_state_.phi.cwiseAbs().maxCoeff());
    }
    VelocityStep s = solve_velocity_step(space, nu, b);
    ++stats_.solves;
    stats_.max_residual = std::max(stats_.max_residual, s.residual);
    if (!s.ok) throw SimulationError(t_, "time-stepping at t = " + std::to_string(t_) + " s: " + s.diagnostic);
    return s;
  }

  void step(double hs) {
    const double alpha = scheme_.alpha;
    cd_.update_dynamics(q_, v_);
    const std::vector<int> active = touching(scheme_.active_epsilon);
    forces(t_, k0_);
    forces(t_ + hs, k1_);
    b_ = cd_.M() * v_ + alpha * hs * ((1 - alpha) * k0_ + alpha * k1_);
    const VelocityStep s = solve(active, q_, v_, b_);
    v1_ = (s.y - (1 - alpha) * v_) / alpha;
    integrate_configuration(model_, q_, s.y, hs, q1_);
    if (collide(active, hs)) return;
    output_.step(t_, q_, t_ + hs, q1_, s.y);
    stats_.variation_v += (v1_ - v_).lpNorm<1>();
    stats_.variation_weighted += (s.y - y_prev_).lpNorm<1>();
    y_prev_ = s.y;
    ++stats_.steps;
    t_ += hs;
    q_.swap(q1_);
    v_.swap(v1_);
    if (steps_) steps_(StepRecord{t_, q_, v_, y_prev_});
  }

  // q on the cubic Hermite interpolant of the step at fraction s.
  void hermite(double s, double hs, Eigen::VectorXd& out) const {
    const double s2 = s * s, s3 = s2 * s;
    out = (2 * s3 - 3 * s2 + 1) * q_ + (s3 - 2 * s2 + s) * hs * qdot0_ + (-2 * s3 + 3 * s2) * q1_ +
          (s3 - s2) * hs * qdot1_;
    for (const Body& b : model_.bodies) joint_normalize(b.joint, out.data() + b.joint.q_index);
  }

  // If an inactive contact closes within the step, resolves the collision and restarts there.
  bool collide(const std::vector<int>& active, double hs) {
    if (contacts_.size() == 0) return false;
    cd_.update_frames(q1_);
    std::vector<int> hits;
    for (int i = 0; i < contacts_.size(); ++i)
      if (cd_.frame(i).phi <= 0 && std::find(active.begin(), active.end(), i) == active.end()) hits.push_back(i);
    if (hits.empty()) return false;
    qdot0_.resize(model_.nq);
    qdot1_.resize(model_.nq);
    for (const Body& b : model_.bodies) {
      const Joint& j = b.joint;
      joint_qdot(j, q_.data() + j.q_index, v_.data() + j.v_index, qdot0_.data() + j.q_index);
      joint_qdot(j, q1_.data() + j.q_index, v1_.data() + j.v_index, qdot1_.data() + j.q_index);
    }
    // The earliest root over the hits, by bisection on the interpolant; it ends on phi <= 0.
    double s_star = 1.0;
    int first = hits.front();
    for (int i : hits) {
      double lo = 0.0, hi = 1.0;
      for (int it = 0; it < 60 && hi - lo > 1e-14; ++it) {
        const double mid = 0.5 * (lo + hi);
        hermite(mid, hs, qm_);
        cd_.update_frames(qm_);
        (cd_.frame(i).phi <= 0 ? hi : lo) = mid;
      }
      if (hi < s_star) {
        s_star = hi;
        first = i;
      }
    }
    hermite(s_star, hs, qm_);
    vm_ = v_ + s_star * (v1_ - v_);
    const double t_star = t_ + s_star * hs;
    cd_.update_dynamics(qm_, vm_);
    std::vector<int> set = touching(std::max(scheme_.active_epsilon, 0.0));
    if (std::find(set.begin(), set.end(), first) == set.end()) set.push_back(first);
    std::sort(set.begin(), set.end());
    const Eigen::VectorXd M_vm = cd_.M() * vm_;
    const VelocityStep s = solve(set, qm_, vm_, M_vm);
    report_impact(t_star, set, s);
    output_.step(t_, q_, t_star, qm_, s.y);
    stats_.variation_v += (s.y - v_).lpNorm<1>();
    stats_.variation_weighted += (s.y - y_prev_).lpNorm<1>();
    y_prev_ = s.y;
    ++stats_.steps;
    ++stats_.impacts;
    t_ = t_star;
    q_ = qm_;
    v_ = s.y;
    if (steps_) steps_(StepRecord{t_, q_, v_, y_prev_});
    return true;
  }

  void report_impact(double t, const std::vector<int>& set, const VelocityStep& s) {
    if (!callbacks_.event) return;
    Event e;
    e.t = t;
    e.kind = "impact";
    e.contacts = set;
    e.law = "time-stepping";
    e.kinetic_before = 0.5 * vm_.dot(cd_.M() * vm_);
    e.kinetic_after = 0.5 * s.y.dot(cd_.M() * s.y);
    e.impulse_n.assign(s.c_n.data(), s.c_n.data() + s.c_n.size());
    callbacks_.event(e);
  }

  const Model& model_;
  const ContactModel& contacts_;
  const std::vector<PinDef>& pins_;
  const SimulationSettings& settings_;
  const TimeSteppingSettings& scheme_;
  const HybridCallbacks& callbacks_;
  const StepSink& steps_;
  const ExternalForce& force_;
  ContactDynamics cd_;
  Kinematics pin_kin_;
  PinState pin_state_;
  StepOutput output_;
  FixedStepStats stats_;
  double t_ = 0.0;
  Eigen::VectorXd q_, v_, q1_, v1_, y_prev_, k0_, k1_, tau_, b_, qdot0_, qdot1_, qm_, vm_;
};

}  // namespace

FixedStepStats simulate_time_stepping(const Model& model, const ContactModel& contacts, const std::vector<PinDef>& pins,
                                      const SimulationSettings& settings, const ContactSettings& contact_settings,
                                      const TimeSteppingSettings& scheme, const State& initial,
                                      const HybridCallbacks& callbacks, const StepSink& steps,
                                      const ExternalForce& force) {
  TimeStepper stepper(model, contacts, pins, settings, contact_settings, scheme, callbacks, steps, force);
  return stepper.run(initial);
}

}  // namespace impactsim
