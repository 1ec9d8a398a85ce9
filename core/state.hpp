#pragma once
// The state of a simulation, the settings every integrator shares and the rows it reports.
// Units: SI (s, and q, v in the units of their joint coordinates, core/joint.hpp).
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <Eigen/Core>

#include "core/dopri5.hpp"

namespace impactsim {

// Whether the event loop runs islands on their own clocks (core/island_clocks.hpp), where they
// apply: always, never, or in models of at least kBlockwiseFrom velocities (automatic).
enum class IslandClocks { off, on, automatic };

struct SimulationSettings {
  double t_end = 1.0;             // [s]
  double output_interval = 0.01;  // [s] between output rows
  OdeTolerances ode;              // the event loop's Dormand-Prince tolerances
  long max_steps = 10'000'000;    // accepted plus rejected steps before giving up
  long stall_window = 10'000;     // event loop: steps that must advance time by 1e-6 t_end (0: never stall)
  bool energy_check = true;       // fixed-step: stop where the rows gain energy (core/fixed_step.hpp)
  IslandClocks island_clocks = IslandClocks::automatic;
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

// Why a run stopped early; stop_reason_code gives the short code batch's runs.csv records.
enum class StopReason {
  step_limit,           // more steps than simulation.max_steps
  stalled,              // the step size collapsed: time stopped advancing
  singular_mass,        // the mass matrix is not positive definite
  not_finite,           // the state or its rate is not finite
  step_underflow,       // the step size fell below machine precision
  event_limit,          // more events than simulation.contact.max_events
  impact_failed,        // an impact law gave no trustworthy outcome
  impacts_unending,     // impacts at one instant did not terminate
  no_contact_forces,    // no consistent contact forces, even after an impact without collision
  missed_impact,        // an open contact sank without an impact being detected
  step_problem_failed,  // a fixed-step scheme's LCP or QP had no solution
  initial_penetration,  // the initial state penetrates beyond the distance tolerance
  unstable_step,        // a fixed-step scheme's step is too long for its explicit joint damping
  energy_gain,          // a fixed-step scheme added more energy than the system had to move with
};
std::string_view stop_reason_code(StopReason reason);

// Raised when integration cannot go on. Every sample before `time` has already been delivered.
class SimulationError : public std::runtime_error {
 public:
  SimulationError(double time, StopReason reason, const std::string& what)
      : std::runtime_error(what), time_(time), reason_(reason) {}
  double time() const { return time_; }
  StopReason reason() const { return reason_; }

 private:
  double time_;
  StopReason reason_;
};

// Output row k is at min(k output_interval, t_end); the last is row last_output_row, at t_end.
inline double output_time(const SimulationSettings& s, long k) {
  return std::min(static_cast<double>(k) * s.output_interval, s.t_end);
}
inline long last_output_row(const SimulationSettings& s) {
  return static_cast<long>(std::ceil(s.t_end / s.output_interval - 1e-9));
}

}  // namespace impactsim
