#pragma once
// Smooth (contact-free) simulation of a Model: integrates qdot = Gamma(q) v, M vdot = -C with
// Dormand-Prince 5(4) and reports samples at fixed output times through a callback. Quaternions are
// projected back to unit length after every accepted step.
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "core/dopri5.hpp"
#include "core/model.hpp"

namespace impactsim {

struct SimulationSettings {
  double t_end = 1.0;             // [s]
  double output_interval = 0.01;  // [s] between output rows
  OdeTolerances ode;
  long max_steps = 10'000'000;    // accepted plus rejected steps before giving up
};

struct State {
  Eigen::VectorXd q;
  Eigen::VectorXd v;
};

struct Sample {
  double t = 0.0;
  const Eigen::VectorXd& q;
  const Eigen::VectorXd& v;
  double kinetic_energy = 0.0;
  double potential_energy = 0.0;
};

struct SimulationStats {
  long accepted_steps = 0;
  long rejected_steps = 0;
  long rhs_evaluations = 0;
  long samples = 0;
};

// Raised when integration cannot go on (singular mass matrix, non-finite state, step underflow).
// Every sample before `time` has already been delivered.
class SimulationError : public std::runtime_error {
 public:
  SimulationError(double time, const std::string& what) : std::runtime_error(what), time_(time) {}
  double time() const { return time_; }

 private:
  double time_;
};

using SampleSink = std::function<void(const Sample&)>;

// Output row k is at min(k output_interval, t_end); the last is row last_output_row, at t_end.
inline double output_time(const SimulationSettings& s, long k) {
  return std::min(static_cast<double>(k) * s.output_interval, s.t_end);
}
inline long last_output_row(const SimulationSettings& s) {
  return static_cast<long>(std::ceil(s.t_end / s.output_interval - 1e-9));
}

SimulationStats simulate_smooth(const Model& model, const SimulationSettings& settings,
                                const State& initial, const SampleSink& sink);

// Kinetic and potential energy at (q, v), for output and checks.
std::pair<double, double> energies(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

}  // namespace impactsim
