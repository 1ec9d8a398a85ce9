#pragma once
// The library's entry point: one run of a System under its integrator (core/integrators.hpp).
#include "core/system.hpp"

namespace impactsim {

// One run from `initial` under system.integrator; the event loop hands impacts to `law` and draws
// from `rng` (the fixed-step schemes have their own impact problems and use neither). Rows and
// events go to `callbacks` as they happen. Throws SimulationError; every row before it was delivered.
RunStats simulate(const System& system, const ImpactLaw& law, const State& initial, Rng& rng,
                  const RunCallbacks& callbacks);

// A contact-free run of `model` by the event loop (Dormand-Prince with dense output rows).
RunStats simulate_smooth(const Model& model, const SimulationSettings& settings, const State& initial,
                         const SampleSink& sink);

}  // namespace impactsim
