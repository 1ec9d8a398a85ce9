#include "core/simulate.hpp"

#include "core/fixed_step.hpp"
#include "core/hybrid.hpp"
#include "core/integrators.hpp"
#include "impact/anitescu_potra.hpp"

namespace impactsim {

RunStats simulate(const System& system, const ImpactLaw& law, const State& initial, Rng& rng,
                  const RunCallbacks& callbacks) {
  if (const std::string problem = budget_problem(system); !problem.empty())
    throw SimulationError(0.0, StopReason::step_limit, problem);
  if (!initial.q.allFinite() || !initial.v.allFinite())
    throw SimulationError(0.0, StopReason::not_finite, "the initial state is not finite");
  if (const std::optional<Penetration> p = initial_penetration(system, initial.q))
    throw SimulationError(0.0, StopReason::initial_penetration,
                          "contact '" + system.contacts.contact(p->contact).name + "' starts " + format_time(p->depth) +
                              " m deep (more than " + format_time(kStartDepthTolerance) +
                              " simulation.contact.distance_tolerance); move the bodies apart");
  const IntegratorDescriptor& integrator = integrator_descriptor(system.integrator);
  if (const double h = integrator.step(system); h > 0) {
    if (const std::string why = explicit_damping_problem(system.model, initial.q, h); !why.empty())
      throw SimulationError(0.0, StopReason::unstable_step,
                            integrator.name + ": " + step_text(system.integrator, h) + " " + why);
  }
  return integrator.run(system, law, initial, rng, callbacks);
}

RunStats simulate_smooth(const Model& model, const SimulationSettings& settings, const State& initial,
                         const SampleSink& sink) {
  System system;
  system.model = model;
  system.simulation = settings;
  const AnitescuPotraLaw law;  // never called: nothing can touch
  Rng rng(0);
  RunCallbacks callbacks;
  callbacks.sample = sink;
  return simulate_hybrid(system, law, initial, rng, callbacks);
}

}  // namespace impactsim
