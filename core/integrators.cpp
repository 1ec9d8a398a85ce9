#include "core/integrators.hpp"

#include <stdexcept>

#include "core/hybrid.hpp"

namespace impactsim {

// The registry: each fixed-step scheme's descriptor is defined in its own file.
const IntegratorDescriptor& time_stepping_integrator();
const IntegratorDescriptor& drumwright_integrator();

namespace {

const IntegratorDescriptor& event_driven_integrator() {
  static const IntegratorDescriptor integrator{
      .kind = Integrator::event_driven,
      .name = "event-driven",
      .summary = "the hybrid event loop: smooth phases by Dormand-Prince, events by root finding, impacts by the law",
      .section = "",
      .settings = {},
      .uses_law = true,
      .apply = [](const Settings&, System&) { return SettingProblem{}; },
      .values = [](const System&) { return Settings(); },
      .describe = [](const System&) { return std::string("event-driven"); },
      .step = [](const System&) { return 0.0; },
      .run = simulate_hybrid};
  return integrator;
}

}  // namespace

const std::vector<const IntegratorDescriptor*>& integrator_registry() {
  static const std::vector<const IntegratorDescriptor*> integrators = {
      &event_driven_integrator(),
      &time_stepping_integrator(),
      &drumwright_integrator(),
  };
  return integrators;
}

const IntegratorDescriptor& integrator_descriptor(Integrator kind) {
  for (const IntegratorDescriptor* d : integrator_registry())
    if (d->kind == kind) return *d;
  throw std::logic_error("an integrator without a descriptor");
}

const IntegratorDescriptor* find_integrator(std::string_view name) {
  for (const IntegratorDescriptor* d : integrator_registry())
    if (d->name == name) return d;
  return nullptr;
}

std::string_view integrator_name(Integrator integrator) { return integrator_descriptor(integrator).name; }

std::string integrator_names_text() {
  std::string text;
  for (const IntegratorDescriptor* d : integrator_registry()) text += (text.empty() ? "" : ", ") + d->name;
  return text;
}

std::string describe_integrator(const System& system) {
  return integrator_descriptor(system.integrator).describe(system);
}

}  // namespace impactsim
