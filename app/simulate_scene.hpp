#pragma once
// One run of a scene under its integrator: the hybrid event loop or a fixed-step scheme. The
// statistics every integrator reports, for the run summary.
#include <string>

#include "core/hybrid.hpp"
#include "scenes/scene.hpp"

namespace impactsim {

struct RunReport {
  long steps = 0;            // accepted steps (fixed-step: all steps)
  long rejected_steps = 0;   // event-driven only
  long evaluations = 0;      // event-driven: dynamics evaluations; fixed-step: LCPs or QPs solved
  long impacts = 0;
  double min_phi = 0.0;
  double max_residual = 0.0;        // fixed-step: worst LCP residual or QP gap bound
  double max_pin_drift = 0.0;       // fixed-step with pins
  double variation_v = 0.0;         // fixed-step: total variation of v^l
  double variation_weighted = 0.0;  // fixed-step: total variation of v^{l,alpha}
};

// Throws SimulationError as the integrators do; rows before it have been delivered.
RunReport simulate_scene(const Scene& scene, const ImpactLaw& law, const State& initial, Rng& rng,
                         const HybridCallbacks& callbacks);
// The same with other run settings (batch runs that write only their final row).
RunReport simulate_scene(const Scene& scene, const SimulationSettings& settings, const ImpactLaw& law,
                         const State& initial, Rng& rng, const HybridCallbacks& callbacks);

// Applies --integrator NAME (if not empty) and --step H (if > 0) to the scene. Returns an error
// message, or "" on success.
std::string override_integrator(Scene& scene, const std::string& name, double step);

// "event-driven", "time-stepping (anitescu-potra, h = 0.001 s)", "drumwright (lcp, h = 0.01 s)".
std::string describe_integrator(const Scene& scene);

}  // namespace impactsim
