#include "app/command_setup.hpp"

#include <filesystem>

#include <spdlog/spdlog.h>

#include "impact/laws.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {

std::optional<Scene> load_scene_or_report(const std::string& path) {
  try {
    return load_scene(path);
  } catch (const SceneError& e) {
    spdlog::error("{}", e.what());
    return std::nullopt;
  }
}

std::unique_ptr<ImpactLaw> make_law_or_report(const std::string& name, const Scene& scene) {
  std::unique_ptr<ImpactLaw> law = make_law(name, scene.laws);
  if (!law) spdlog::error("--law: unknown impact law '{}'", name);
  return law;
}

std::string override_integrator(Scene& scene, const std::string& name, double step) {
  System& system = scene.system;
  if (name == "event-driven") system.integrator = Integrator::event_driven;
  else if (name == "time-stepping") system.integrator = Integrator::time_stepping;
  else if (name == "drumwright") system.integrator = Integrator::drumwright;
  else if (!name.empty()) return "--integrator: unknown integrator '" + name + "' (known: event-driven, time-stepping, drumwright)";
  if (system.integrator == Integrator::event_driven && !system.pins.empty())
    return "--integrator: the scene has pins (constraints), which only time-stepping and drumwright take";
  if (step > 0) {
    if (system.integrator == Integrator::event_driven) return "--step: the event-driven integrator chooses its own steps";
    system.time_stepping.h = step;
    system.drumwright.h = step;
    if (const std::string problem = budget_problem(system); !problem.empty()) return "--step: " + problem;
  }
  return "";
}

std::string prepare_output_directory(const std::string& requested, const Scene& scene) {
  const std::string dir = !requested.empty()                 ? requested
                          : !scene.output.directory.empty() ? scene.output.directory
                                                            : "out/" + scene.name;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    spdlog::error("{}: cannot create the output directory: {}", dir, ec.message());
    return "";
  }
  return dir;
}

}  // namespace impactsim
