#include "app/simulate_scene.hpp"

#include <spdlog/fmt/fmt.h>

namespace impactsim {
namespace {

RunReport report(const FixedStepStats& s) {
  RunReport r;
  r.steps = s.steps;
  r.evaluations = s.solves;
  r.impacts = s.impacts;
  r.min_phi = s.min_phi;
  r.max_residual = s.max_residual;
  r.max_pin_drift = s.max_pin_drift;
  r.variation_v = s.variation_v;
  r.variation_weighted = s.variation_weighted;
  return r;
}

}  // namespace

RunReport simulate_scene(const Scene& scene, const ImpactLaw& law, const State& initial, Rng& rng,
                         const HybridCallbacks& callbacks) {
  return simulate_scene(scene, scene.simulation, law, initial, rng, callbacks);
}

RunReport simulate_scene(const Scene& scene, const SimulationSettings& settings, const ImpactLaw& law,
                         const State& initial, Rng& rng, const HybridCallbacks& callbacks) {
  const ContactModel contacts(scene.geometries, scene.contacts, scene.model.planar);
  switch (scene.integrator) {
    case Integrator::time_stepping:
      return report(simulate_time_stepping(scene.model, contacts, scene.pins, settings, scene.contact,
                                           scene.time_stepping, initial, callbacks));
    case Integrator::drumwright:
      return report(simulate_drumwright(scene.model, contacts, scene.pins, settings, scene.contact,
                                        scene.drumwright, initial, callbacks));
    case Integrator::event_driven: break;
  }
  const HybridStats s =
      simulate_hybrid(scene.model, contacts, law, settings, scene.contact, initial, rng, callbacks);
  RunReport r;
  r.steps = s.accepted_steps;
  r.rejected_steps = s.rejected_steps;
  r.evaluations = s.rhs_evaluations;
  r.impacts = s.impacts;
  r.min_phi = s.min_phi;
  return r;
}

std::string override_integrator(Scene& scene, const std::string& name, double step) {
  if (name == "event-driven") scene.integrator = Integrator::event_driven;
  else if (name == "time-stepping") scene.integrator = Integrator::time_stepping;
  else if (name == "drumwright") scene.integrator = Integrator::drumwright;
  else if (!name.empty()) return "--integrator: unknown integrator '" + name + "' (known: event-driven, time-stepping, drumwright)";
  if (scene.integrator == Integrator::event_driven && !scene.pins.empty())
    return "--integrator: the scene has pins (constraints), which only time-stepping and drumwright take";
  if (step > 0) {
    if (scene.integrator == Integrator::event_driven) return "--step: the event-driven integrator chooses its own steps";
    scene.time_stepping.h = step;
    scene.drumwright.h = step;
  }
  return "";
}

std::string describe_integrator(const Scene& scene) {
  switch (scene.integrator) {
    case Integrator::time_stepping:
      return fmt::format("time-stepping ({}, h = {} s)", scene.time_stepping.alpha == 1 ? "anitescu-potra" : "trapezoidal",
                         scene.time_stepping.h);
    case Integrator::drumwright:
      return fmt::format("drumwright ({}{}, h = {} s)",
                         scene.drumwright.problem == SoftProblem::lcp ? "lcp" : "min-norm-qp",
                         scene.model.planar ? "" : scene.drumwright.cone == FrictionConeKind::circular ? ", circular cone" : ", polyhedral cone",
                         scene.drumwright.h);
    case Integrator::event_driven: break;
  }
  return "event-driven";
}

}  // namespace impactsim
