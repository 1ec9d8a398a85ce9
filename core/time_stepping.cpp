#include "core/time_stepping.hpp"

#include <algorithm>
#include <cmath>

#include "core/joint.hpp"
#include "impact/velocity_step.hpp"

namespace impactsim {
namespace {

class TimeStepper : public FixedStepper {
 public:
  TimeStepper(const Model& model, const ContactModel& contacts, const std::vector<PinDef>& pins,
              const SimulationSettings& settings, const ContactSettings& contact_settings,
              const TimeSteppingSettings& scheme, const HybridCallbacks& callbacks, const StepSink& steps,
              const ExternalForce& force)
      : FixedStepper(model, contacts, pins, settings, contact_settings, callbacks, steps, force, "time-stepping"),
        scheme_(scheme) {}

 private:
  VelocityStep solve(const std::vector<int>& set, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const Eigen::VectorXd& b) {
    update_jacobians(set, false);
    const ContactSpace space = cd_.contact_space(set);
    Eigen::MatrixXd nu(0, model_.nv);
    if (!pins_.empty()) {
      update_pins(q, v);
      nu = pin_state_.G;
    }
    VelocityStep s = solve_velocity_step(space, nu, b);
    ++stats_.solves;
    stats_.max_residual = std::max(stats_.max_residual, s.residual);
    if (!s.ok) throw SimulationError(t_, "time-stepping at t = " + std::to_string(t_) + " s: " + s.diagnostic);
    return s;
  }

  void step(double hs) override {
    const double alpha = scheme_.alpha;
    cd_.update_dynamics(q_, v_);
    const std::vector<int> active = touching(scheme_.active_epsilon);
    applied_forces(t_, k0_);
    applied_forces(t_ + hs, k1_);
    b_ = cd_.M() * v_ + alpha * hs * ((1 - alpha) * k0_ + alpha * k1_);
    const VelocityStep s = solve(active, q_, v_, b_);
    v1_ = (s.y - (1 - alpha) * v_) / alpha;
    integrate_configuration(model_, q_, s.y, hs, q1_);
    if (collide(active, hs)) return;
    finish_step(t_ + hs, q1_, v1_, s.y);
  }

  // q on the cubic Hermite interpolant of the step at fraction s.
  void hermite(double s, double hs, Eigen::VectorXd& out) const {
    const double s2 = s * s, s3 = s2 * s;
    out = (2 * s3 - 3 * s2 + 1) * q_ + (s3 - 2 * s2 + s) * hs * qdot0_ + (-2 * s3 + 3 * s2) * q1_ +
          (s3 - s2) * hs * qdot1_;
    normalize_configuration(model_, out.data());
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
    configuration_rate(model_, q_, v_, qdot0_.data());
    configuration_rate(model_, q1_, v1_, qdot1_.data());
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
    ++stats_.impacts;
    v1_ = s.y;
    finish_step(t_star, qm_, v1_, s.y);
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

  const TimeSteppingSettings& scheme_;
  Eigen::VectorXd q1_, v1_, k0_, k1_, b_, qdot0_, qdot1_, qm_, vm_;
};

}  // namespace

FixedStepStats simulate_time_stepping(const Model& model, const ContactModel& contacts, const std::vector<PinDef>& pins,
                                      const SimulationSettings& settings, const ContactSettings& contact_settings,
                                      const TimeSteppingSettings& scheme, const State& initial,
                                      const HybridCallbacks& callbacks, const StepSink& steps,
                                      const ExternalForce& force) {
  TimeStepper stepper(model, contacts, pins, settings, contact_settings, scheme, callbacks, steps, force);
  return stepper.run(initial, scheme.h);
}

}  // namespace impactsim
