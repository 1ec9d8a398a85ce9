#pragma once
// Stops, within seconds, an event-driven run that cannot reach t_end. Every
// simulation.stall_window steps (accepted and rejected) it compares the progress of the last window
// with what is left:
//   - less than 1e-6 t_end: the step size collapsed (StopReason::stalled);
//   - at that pace t_end needs more than kPaceMargin times the steps max_steps has left
//     (StopReason::step_limit, now rather than after the hours the remaining steps would take).
//     The margin spares runs whose pace picks up later (a tumbling cube that comes to rest skips
//     to t_end).
// Its message names the guards that fired most in the window: the contacts that held the run back.
#include <string>
#include <vector>

#include "core/event_locate.hpp"
#include "core/state.hpp"

namespace impactsim {

constexpr double kPaceMargin = 20;

class StallWatch {
 public:
  StallWatch(const SimulationSettings& s, const ContactModel& contacts, bool steps_through_chatter);
  // Counts the guard whose crossing placed an event (not the others within their tolerance there:
  // open contacts a micrometre from a chattering one would be blamed for its stick guard).
  void note(const FiredGuard& crossed);
  // steps: the integrator's steps so far, accepted and rejected; t: the time the run has reached
  // (the last event or accepted step, not the integrator's step end beyond it). Throws
  // SimulationError as above.
  void check(long steps, double t);

 private:
  std::string most_fired() const;

  long window_, max_steps_;
  double t_end_;
  const ContactModel& contacts_;
  std::vector<long> fired_;  // per contact and guard kind, in this window
  bool steps_through_chatter_;
  long start_steps_ = 0;
  double start_t_ = 0.0;
};

}  // namespace impactsim
