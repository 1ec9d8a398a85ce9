#include "core/fixed_step.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "core/integrators.hpp"

namespace impactsim {

void StepOutput::emit(const Model& model, const SampleSink& sink, double t, const Eigen::VectorXd& q,
                      const Eigen::VectorXd& v) {
  if (sink) {
    const auto [kinetic, potential] = energies(model, q, v, kin_);
    const Sample row{t, q, v, kinetic, potential};
    check_finite_row(row);
    sink(row);
  }
  ++next_;
}

void EnergyAccount::add(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const auto [kinetic, potential] = energies(model, q, v, kin_);
  if (!started_) {
    kinetic0_ = kinetic;
    potential0_ = potential_min_ = potential;
    started_ = true;
  }
  potential_min_ = std::min(potential_min_, potential);
  energy_ = kinetic + potential;
}

void StepOutput::first(const Model& model, const SampleSink& sink, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  next_ = 0;
  emit(model, sink, 0.0, q, v);
}

void StepOutput::step(const Model& model, const SimulationSettings& settings, const SampleSink& sink, double t0,
                      const Eigen::VectorXd& q0, double t1, const Eigen::VectorXd& q1, const Eigen::VectorXd& v) {
  const double eps = 1e-9 * (t1 - t0);
  const long last = last_output_row(settings);
  while (next_ <= last && output_time(settings, next_) <= t1 + eps) {
    const double t = output_time(settings, next_);
    const double s = t1 > t0 ? std::clamp((t - t0) / (t1 - t0), 0.0, 1.0) : 1.0;
    q_ = q0 + s * (q1 - q0);
    normalize_configuration(model, q_.data());
    emit(model, sink, t, q_, v);
  }
}

FixedStepRun::FixedStepRun(const System& system, const State& initial)
    : q(initial.q), v(initial.v), v_weighted(initial.v), output(system.model), energy(system.model) {}

FixedStepScratch::FixedStepScratch(const System& system) : contact(system.model, system.contacts), pin_kin(system.model) {}

std::string explicit_damping_problem(const Model& model, const Eigen::VectorXd& q, double h) {
  std::vector<int> damped;  // the bodies whose joints are damped
  for (size_t b = 0; b < model.bodies.size(); ++b)
    if (model.bodies[b].joint.damping > 0) damped.push_back(static_cast<int>(b));
  if (damped.empty()) return "";
  BodyDynamics body(model);
  compute_body_dynamics(model, q, Eigen::VectorXd::Zero(model.nv), body);
  if (body.M_llt.info() != Eigen::Success) return "";  // the run reports the singular mass itself
  const Eigen::Index n = static_cast<Eigen::Index>(damped.size());
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(model.nv, n);
  for (Eigen::Index k = 0; k < n; ++k) X(model.bodies[damped[k]].joint.v_index, k) = 1.0;
  body.M_llt.solveInPlace(X);  // the damped columns of M^-1
  // h M^-1 D has the eigenvalues of the symmetric h D^1/2 M^-1 D^1/2 (zero on undamped coordinates).
  Eigen::MatrixXd S(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      S(i, j) = h * std::sqrt(model.bodies[damped[i]].joint.damping * model.bodies[damped[j]].joint.damping) *
                X(model.bodies[damped[i]].joint.v_index, j);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(S);
  const double largest = eig.eigenvalues()[n - 1];
  if (!(largest > 2.0)) return "";
  Eigen::Index joint = 0;
  eig.eigenvectors().col(n - 1).cwiseAbs().maxCoeff(&joint);
  return "is too long for the damping of the joint of '" + model.bodies[damped[joint]].name +
         "', which this scheme applies explicitly: h M^-1 D has the eigenvalue " + format_time(largest) +
         ", above 2, so the velocity would grow without bound; take a step below " + format_time(2.0 * h / largest) +
         " s (--step) or the event-driven integrator";
}

std::string step_text(Integrator scheme, double h) {
  return "the step h = " + format_time(h) + " s (simulation." + integrator_descriptor(scheme).section + ".h)";
}

double lift_work(const Model& model, double distance) { return model.total_mass() * model.gravity.norm() * distance; }

namespace {

void check_energy(const FixedStepRun& run, double h, Integrator scheme, double allowance) {
  const double gain = run.energy.gain();
  if (!(gain > run.energy.available() + allowance)) return;
  throw SimulationError(run.t, StopReason::energy_gain,
                        integrator_descriptor(scheme).name + ": by t = " + format_time(run.t) +
                            " s kinetic plus potential energy rose " + format_time(gain) +
                            " J above the start's, more than the " + format_time(run.energy.available()) +
                            " J the system had to move with (its kinetic energy at the start and the potential energy "
                            "lost since): " + step_text(scheme, h) +
                            " is too long for this scene; take a shorter --step or the event-driven integrator");
}

}  // namespace

RunStats run_fixed_steps(const System& system, const State& initial, double h, const FixedStepIO& io,
                         Integrator scheme, const std::function<void(FixedStepRun&, double hs)>& step) {
  const SimulationSettings& settings = system.simulation;
  FixedStepRun run(system, initial);
  run.output.first(system.model, io.callbacks.sample, run.q, run.v);
  run.energy.add(system.model, run.q, run.v);
  const double allowance = lift_work(system.model, system.contact.distance_tolerance);
  // Steps end within a billionth of a step of t_end; a step longer than the run is one short step.
  const double end_tolerance = 1e-9 * std::min(h, settings.t_end);
  try {
    while (run.t < settings.t_end - end_tolerance) {
      const double hs = settings.t_end - run.t < h * (1 + 1e-9) ? settings.t_end - run.t : h;
      step(run, hs);
      if (!run.q.allFinite() || !run.v.allFinite())
        throw SimulationError(run.t, StopReason::not_finite,
                              integrator_descriptor(scheme).name + ": the state is not finite");
      run.energy.add(system.model, run.q, run.v);
      run.stats.max_energy_gain = std::max(run.stats.max_energy_gain, run.energy.gain());
      if (settings.energy_check && !io.force) check_energy(run, h, scheme, allowance);
      if (io.callbacks.stop && io.callbacks.stop()) break;
    }
  } catch (const SimulationError&) {
    if (io.callbacks.stopped) {
      const auto [kinetic, potential] = energies(system.model, run.q, run.v);
      io.callbacks.stopped(Sample{run.t, run.q, run.v, kinetic, potential});
    }
    throw;
  }
  run.stats.samples = run.output.rows();
  return run.stats;
}

std::vector<int> touching(const std::vector<ContactFrame>& frames, double threshold, RunStats& stats) {
  std::vector<int> set;
  for (size_t i = 0; i < frames.size(); ++i) {
    const double phi = frames[i].phi;
    stats.min_phi = std::min(stats.min_phi, phi);
    if (phi <= threshold) set.push_back(static_cast<int>(i));
  }
  return set;
}

std::vector<bool> contact_flags(int contacts, const std::vector<int>& set) {
  std::vector<bool> need(contacts, false);
  for (int i : set) need[i] = true;
  return need;
}

void finish_step(const System& system, const FixedStepIO& io, FixedStepRun& run, double t1, Eigen::VectorXd& q1,
                 Eigen::VectorXd& v1, const Eigen::VectorXd& v_on_step) {
  run.output.step(system.model, system.simulation, io.callbacks.sample, run.t, run.q, t1, q1, v_on_step);
  run.stats.variation_v += (v1 - run.v).lpNorm<1>();
  run.stats.variation_weighted += (v_on_step - run.v_weighted).lpNorm<1>();
  run.v_weighted = v_on_step;
  ++run.stats.steps;
  run.t = t1;
  run.q.swap(q1);
  run.v.swap(v1);
  if (io.steps) io.steps(StepRecord{run.t, run.q, run.v, run.v_weighted});
}

void applied_forces(const FixedStepIO& io, const FixedStepRun& run, const BodyDynamics& body, double t,
                    Eigen::VectorXd& tau, Eigen::VectorXd& k) {
  k = -body.C;
  if (!io.force) return;
  tau.setZero(run.v.size());
  io.force(t, run.q, run.v, tau);
  k += tau;
}

void update_pins(const System& system, const Eigen::VectorXd& q, const Eigen::VectorXd& v, FixedStepScratch& scratch,
                 RunStats& stats) {
  evaluate_pins(system.model, system.pins, q, v, scratch.pin_kin, scratch.pins);
  stats.max_pin_drift = std::max(stats.max_pin_drift, scratch.pins.phi.cwiseAbs().maxCoeff());
}

}  // namespace impactsim
