#include "core/system.hpp"

#include <cmath>
#include <sstream>

#include "core/drumwright.hpp"
#include "core/hybrid.hpp"
#include "core/time_stepping.hpp"
#include "impact/anitescu_potra.hpp"

namespace impactsim {

std::string_view integrator_name(Integrator integrator) {
  switch (integrator) {
    case Integrator::event_driven: return "event-driven";
    case Integrator::time_stepping: return "time-stepping";
    case Integrator::drumwright: return "drumwright";
  }
  return "?";
}

RunStats simulate(const System& system, const ImpactLaw& law, const State& initial, Rng& rng,
                  const RunCallbacks& callbacks) {
  switch (system.integrator) {
    case Integrator::time_stepping: return simulate_time_stepping(system, initial, callbacks);
    case Integrator::drumwright: return simulate_drumwright(system, initial, callbacks);
    case Integrator::event_driven: break;
  }
  return simulate_hybrid(system, law, initial, rng, callbacks);
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

std::vector<bool> closed_contacts(const System& system, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  ContactData data(system.model, system.contacts);
  compute_contact_data(system.model, system.contacts, q, v, {}, data);
  std::vector<bool> closed(system.contacts.size());
  for (int i = 0; i < system.contacts.size(); ++i)
    closed[i] = data.frames[i].phi <= system.contact.distance_tolerance &&
                std::abs(data.jac.of(i).row(0).dot(v)) <= 1e-6 * std::max(1.0, v.cwiseAbs().maxCoeff());
  return closed;
}

std::string describe_integrator(const System& system) {
  std::ostringstream s;
  switch (system.integrator) {
    case Integrator::time_stepping:
      s << "time-stepping (" << (system.time_stepping.alpha == 1 ? "anitescu-potra" : "trapezoidal")
        << ", h = " << system.time_stepping.h << " s)";
      break;
    case Integrator::drumwright: {
      const DrumwrightSettings& d = system.drumwright;
      s << "drumwright (" << (d.problem == SoftProblem::lcp ? "lcp" : "min-norm-qp");
      if (!system.model.planar) s << (d.cone == FrictionConeKind::circular ? ", circular cone" : ", polyhedral cone");
      s << ", h = " << d.h << " s)";
      break;
    }
    case Integrator::event_driven: s << "event-driven"; break;
  }
  return s.str();
}

}  // namespace impactsim
