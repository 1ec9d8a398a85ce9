#pragma once
// The integrators by name: one descriptor each, which simulate(), the scene loader, `check`,
// metadata.json, the command's --help and scenes/README.md iterate. Each declares the settings of
// its section simulation.<section> (numerics/settings.hpp) and how they reach the System's typed
// settings, which the scheme itself reads.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/system.hpp"
#include "numerics/settings.hpp"

namespace impactsim {

struct IntegratorDescriptor {
  Integrator kind = Integrator::event_driven;
  std::string name;     // as scenes and --integrator give it
  std::string summary;  // one line, for --help and the docs
  std::string section;  // its settings' section under simulation ("" for none)
  std::vector<SettingSpec> settings;
  bool uses_law = true;  // false: the scheme resolves contacts by its own step problem
  // The read settings into system's typed ones; a problem names a key of the section.
  std::function<SettingProblem(const Settings&, System&)> apply;
  // The settings in effect, defaults resolved (B_t = 1e6 / h), as metadata.json records them.
  std::function<Settings(const System&)> values;
  // "time-stepping (anitescu-potra, h = 0.001 s)".
  std::function<std::string(const System&)> describe;
  // The fixed step h [s]; 0 for an integrator that chooses its own.
  std::function<double(const System&)> step;
  std::function<RunStats(const System&, const ImpactLaw&, const State&, Rng&, const RunCallbacks&)> run;
};

// Every integrator, in the order --help and the docs list them.
const std::vector<const IntegratorDescriptor*>& integrator_registry();
const IntegratorDescriptor& integrator_descriptor(Integrator kind);
// nullptr for an unknown name.
const IntegratorDescriptor* find_integrator(std::string_view name);
// "event-driven, time-stepping, drumwright".
std::string integrator_names_text();

// "event-driven", "time-stepping (anitescu-potra, h = 0.001 s)", "drumwright (lcp, h = 0.01 s)".
std::string describe_integrator(const System& system);

}  // namespace impactsim
