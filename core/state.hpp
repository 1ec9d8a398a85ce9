#pragma once
// The state of a simulation, the settings every integrator shares and the rows it reports.
// Units: SI (s, and q, v in the units of their joint coordinates, core/joint.hpp).
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

#include <Eigen/Core>

#include "core/dopri5.hpp"

namespace impactsim {

struct SimulationSettings {
  double t_end = 1.0;             // [s]
  double output_interval = 0.01;  // [s] between output rows
  OdeTolerances ode;              // the event loop's Dormand-Prince tolerances
  long max_steps = 10'000'000;    // accepted plus rejected steps before giving up
};

struct State {
  Eigen::VectorXd q;
  Eigen::VectorXd v;
};

// One output row: the state at time t with its energies [J] (potential: gravitational, zero at
// the world origin). q and v are valid only during the callback.
struct Sample {
  double t = 0.0;
  const Eigen::VectorXd& q;
  const Eigen::VectorXd& v;
  double kinetic_energy = 0.0;
  double potential_energy = 0.0;
};
using SampleSink = std::function<void(const Sample&)>;

// Raised when integration cannot go on (singular mass matrix, non-finite state, step underflow, an
// impact without a solution). Every sample before `time` has already been delivered.
class SimulationError : public std::runtime_error {
 public:
  SimulationError(double time, const std::string& what) : std::runtime_error(what), time_(time) {}
  double time() const { return time_; }

 private:
  double time_;
};

// Output row k is at min(k output_interval, t_end); the last is row last_output_row, at t_end.
inline double output_time(const SimulationSettings& s, long k) {
  return std::min(static_cast<double>(k) * s.output_interval, s.t_end);
}
inline long last_output_row(const SimulationSettings& s) {
  return static_cast<long>(std::ceil(s.t_end / s.output_interval - 1e-9));
}

}  // namespace impactsim
