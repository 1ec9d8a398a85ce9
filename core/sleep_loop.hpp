#pragma once
// The event loop's side of sleeping islands (core/sleep.hpp): islands falling asleep at a state the
// loop reached, and waking at an event or before a Painleve step, each logged (`sleep`, `wake`) with
// the contacts it froze or freed. Each function works on the loop's data (core/loop_data.hpp).
#include <vector>

#include <Eigen/Core>

#include "core/impacts.hpp"
#include "core/loop_data.hpp"

namespace impactsim {

// Islands at rest at (t, x) fall asleep, `rate` the phase's rate at x and d.contact's closed
// Jacobians current: at_rest's test over the time left, at x's velocities and again at zero (the
// velocities they would keep: Baumgarte's pull on their last drift alone). Their velocities in x
// go to zero, the event is logged with rows before and after (event_sample), and
// d.phase.closed_set loses their contacts. True where one fell asleep.
bool sleep_resting_islands(const System& sys, LoopData& d, double t, Eigen::VectorXd& x, const Eigen::VectorXd& rate,
                           const EventLog& log, const SampleSink& event_sample);

// After an event's mode choice at velocities v, the sleeping islands it reached wake: one with a
// closed contact the choice did not keep (not `settled`, or no longer closed), one whose velocities
// changed, and every one where the choice kept nothing (settled empty, or no modes `chosen`).
void wake_reached_islands(const System& sys, LoopData& d, double t, const std::vector<bool>& settled, bool chosen,
                          const Eigen::VectorXd& v, const EventLog& log);

// Every sleeping island wakes (a Painleve step moves every body), at (q, v).
void wake_all(const System& sys, LoopData& d, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
              const EventLog& log);

}  // namespace impactsim
