#pragma once
// Islands on their own clocks: the hybrid event loop run per group of bodies that cannot meet.
//
// One global step is shared by every body in the plain loop, so every event anywhere restarts the
// integration of all of them. Here the bodies are split at a sync time T into groups that cannot
// touch before a horizon H (core/island_partition.hpp); each group runs its own event loop
// (core/event_loop.hpp) over its slice of the system (core/system_slice.hpp), with its own steps,
// events and random generator, until its progress covers H. At H the groups are formed again from
// the states there: a group with the same bodies goes on untouched (its loop paused, not
// restarted), others start a loop from H. A group that never meets another takes the steps it
// would take alone, to the bit.
//
// Output: rows at the output times, assembled from the groups' rows; no rows at events (another
// group's state at an event's instant is not computed). Events in time order, their contacts the
// whole system's; a group that comes to rest logs `sleep` with the contacts of its `rest`, and the
// run logs `rest` when the last group rests. Statistics are the groups' sums.
#include <Eigen/Core>

#include "core/system.hpp"

namespace impactsim {

// Whether a run of sys goes by islands on their own clocks: simulation.island_clocks on (or
// automatic, with at least kBlockwiseFrom velocities), and the energy bound applies (island_model).
bool island_clocks_apply(const System& sys);

// The run from x0 = (q, v) at t = 0 to t_end. Throws SimulationError as simulate_hybrid does, after
// handing callbacks.stopped the whole state at the last sync time.
RunStats simulate_island_clocks(const System& sys, const ImpactLaw& law, const Eigen::VectorXd& x0, Rng& rng,
                                const RunCallbacks& callbacks);

}  // namespace impactsim
