#pragma once
// The hybrid event loop: smooth phases with a fixed contact mode, integrated by Dormand-Prince 5(4)
// (core/dopri5.hpp); events found by root finding on the phase's guard functions along the dense
// output (core/guards.hpp, core/event_locate.hpp); impacts handed to an impact law and the next
// phase's contact modes chosen by the acceleration LCP (core/event_handling.hpp).
//
// Output: a row at every output time; with callbacks.event_sample, rows just before and just
// after every event that logged something. Rest: after an event or an accepted step that leaves
// the state a fixed point of the mode's ODE (event_handling.hpp's at_rest), the run logs `rest`
// and skips to t_end, every remaining row equal to that state.
#include "core/system.hpp"

namespace impactsim {

// Runs system from `initial` to system.simulation.t_end (or until callbacks.stop). Throws
// SimulationError as described in core/state.hpp.
RunStats simulate_hybrid(const System& system, const ImpactLaw& law, const State& initial, Rng& rng,
                         const RunCallbacks& callbacks);

}  // namespace impactsim
