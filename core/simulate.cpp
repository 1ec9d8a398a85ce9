#include "core/simulate.hpp"

#include <cmath>
#include <sstream>

#include "core/dynamics.hpp"

namespace impactsim {
namespace {

bool has_quaternions(const Model& model) {
  for (const Body& b : model.bodies)
    if (b.joint.type == JointType::free) return true;
  return false;
}

void normalize_quaternions(const Model& model, Eigen::Ref<Eigen::VectorXd> q) {
  for (const Body& b : model.bodies) joint_normalize(b.joint, q.data() + b.joint.q_index);
}

std::string describe(Dopri5::Status status) {
  switch (status) {
    case Dopri5::Status::rhs_failed: return "the mass matrix is not positive definite";
    case Dopri5::Status::step_underflow: return "the step size fell below machine precision";
    case Dopri5::Status::not_finite: return "the state is not finite";
    case Dopri5::Status::ok: break;
  }
  return "ok";
}

// Output time k: k * interval, or exactly t_end for the last one.
double output_time(long k, const SimulationSettings& s) {
  return std::min(static_cast<double>(k) * s.output_interval, s.t_end);
}

}  // namespace

std::pair<double, double> energies(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  Kinematics kin(model);
  update_kinematics(model, q, kin);
  update_velocities(model, q, v, kin);
  return {kinetic_energy(model, kin), potential_energy(model, kin)};
}

SimulationStats simulate_smooth(const Model& model, const SimulationSettings& settings,
                                const State& initial, const SampleSink& sink) {
  const int nq = model.nq, nv = model.nv;
  ForwardDynamics dynamics(model);
  Eigen::VectorXd q(nq), v(nv), vdot(nv);
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(nv);

  auto rhs = [&](double, const Eigen::VectorXd& x, Eigen::VectorXd& dx) {
    q = x.head(nq);
    v = x.tail(nv);
    for (const Body& b : model.bodies)
      joint_qdot(b.joint, q.data() + b.joint.q_index, v.data() + b.joint.v_index, dx.data() + b.joint.q_index);
    if (!dynamics.compute(q, v, tau, vdot)) return false;
    dx.tail(nv) = vdot;
    return true;
  };

  Dopri5 ode(nq + nv, rhs, settings.ode);
  Eigen::VectorXd x(nq + nv), x_out(nq + nv);
  x << initial.q, initial.v;
  const bool project = has_quaternions(model);
  SimulationStats stats;

  Kinematics kin(model);
  Eigen::VectorXd q_out(nq), v_out(nv);
  auto emit = [&](double t, const Eigen::VectorXd& state) {
    q_out = state.head(nq);
    v_out = state.tail(nv);
    normalize_quaternions(model, q_out);
    update_kinematics(model, q_out, kin);
    update_velocities(model, q_out, v_out, kin);
    sink(Sample{t, q_out, v_out, kinetic_energy(model, kin), potential_energy(model, kin)});
    ++stats.samples;
  };
  auto fail = [&](Dopri5::Status status, double t) {
    std::ostringstream msg;
    msg << "integration stopped at t = " << t << " s: " << describe(status);
    throw SimulationError(t, msg.str());
  };

  if (auto st = ode.reset(0.0, x); st != Dopri5::Status::ok) fail(st, 0.0);
  emit(0.0, x);
  long next = 1;
  const long last = static_cast<long>(std::ceil(settings.t_end / settings.output_interval - 1e-9));
  const double eps_t = 1e-12 * std::max(1.0, settings.t_end);
  while (ode.t() < settings.t_end - eps_t) {
    if (ode.accepted() + ode.rejected() >= settings.max_steps) {
      std::ostringstream msg;
      msg << "integration stopped at t = " << ode.t() << " s: more than " << settings.max_steps << " steps";
      throw SimulationError(ode.t(), msg.str());
    }
    if (auto st = ode.step(settings.t_end); st != Dopri5::Status::ok) fail(st, ode.t());
    while (next <= last && output_time(next, settings) <= ode.t() + eps_t) {
      ode.dense(output_time(next, settings), x_out);
      emit(output_time(next, settings), x_out);
      ++next;
    }
    if (project) {
      x = ode.y();
      normalize_quaternions(model, x.head(nq));
      if (auto st = ode.set_state(x); st != Dopri5::Status::ok) fail(st, ode.t());
    }
  }
  stats.accepted_steps = ode.accepted();
  stats.rejected_steps = ode.rejected();
  stats.rhs_evaluations = ode.evaluations();
  return stats;
}

}  // namespace impactsim
