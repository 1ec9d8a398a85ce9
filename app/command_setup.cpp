#include "app/command_setup.hpp"
#include "core/integrators.hpp"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <set>

#include <spdlog/spdlog.h>

#include "impact/laws.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {

std::optional<Scene> load_scene_or_report(const std::string& path, const std::vector<std::string>& overrides) {
  try {
    std::vector<SceneOverride> parsed;
    for (const std::string& text : overrides) parsed.push_back(parse_override(text));
    return load_scene(path, parsed);
  } catch (const SceneError& e) {
    spdlog::error("{}", e.what());
    return std::nullopt;
  }
}

std::vector<std::string> law_ignores(const std::string& name, const Scene& scene) {
  const std::vector<ContactDef>& contacts = scene.system.contacts.contacts();
  if (!integrator_descriptor(scene.system.integrator).uses_law || contacts.empty()) return {};
  const LawDescriptor* law = find_law(name);
  if (!law) return {};
  const LawModel& model = law->model;
  const auto largest = [&](double ContactDef::*field) {
    return *std::max_element(contacts.begin(), contacts.end(),
                             [&](const ContactDef& a, const ContactDef& b) { return a.*field < b.*field; });
  };
  std::vector<std::string> out;
  if (const ContactDef& c = largest(&ContactDef::mu); !model.friction && c.mu > 0)
    out.push_back(fmt::format("law {} ignores friction (contact {} has mu = {}): its impacts are frictionless", name,
                              c.name, c.mu));
  if (const ContactDef& c = largest(&ContactDef::e); !model.restitution && c.e > 0)
    out.push_back(fmt::format("law {} ignores restitution (contact {} has e = {}): its impacts end when no contact "
                              "approaches",
                              name, c.name, c.e));
  const double e_min = std::min_element(contacts.begin(), contacts.end(), [](const ContactDef& a, const ContactDef& b) {
                         return a.e < b.e;
                       })->e;
  const double e_max = largest(&ContactDef::e).e;
  const std::string& key = model.restitution_setting;
  if (model.restitution && !model.per_contact_restitution && e_max > e_min && !key.empty() &&
      scene.laws.of(name).number(key) < 0)
    out.push_back(fmt::format("law {} uses one restitution {} per impact, the smallest e of its contacts; the scene's e "
                              "range over [{}, {}] (set simulation.{}.{} to choose)",
                              name, key, e_min, e_max, name, key));
  return out;
}

namespace {

// A sweep sets up one command per grid point: each warning is logged by the first.
void warn_once(const std::string& warning) {
  static std::mutex mutex;
  static std::set<std::string> said;
  const std::lock_guard<std::mutex> lock(mutex);
  if (said.insert(warning).second) spdlog::warn("{}", warning);
}

}  // namespace

std::unique_ptr<ImpactLaw> make_law_or_report(const std::string& name, const Scene& scene) {
  std::unique_ptr<ImpactLaw> law = make_law(name, scene.laws);
  if (!law) {
    spdlog::error("--law: unknown impact law '{}' (known: {})", name, law_names_text());
    return law;
  }
  for (const std::string& warning : law_ignores(name, scene)) warn_once(warning);
  for (const std::string& note : scene.robot.ignored) warn_once(note);
  return law;
}

std::string registry_help() {
  std::string out = "Impact laws (--law, simulation.law):\n";
  for (const LawDescriptor* law : law_registry()) out += "  " + law->name + ": " + law->summary + "\n";
  out += "Integrators (--integrator, simulation.integrator):\n";
  for (const IntegratorDescriptor* d : integrator_registry()) out += "  " + d->name + ": " + d->summary + "\n";
  return out;
}

std::string law_option_problem(const std::string& law_option, const Scene& scene) {
  const IntegratorDescriptor& integrator = integrator_descriptor(scene.system.integrator);
  if (law_option.empty() || integrator.uses_law) return "";
  return "--law: the " + integrator.name +
         " integrator resolves contacts by its own step problem and uses no impact law (drop --law, or add "
         "--integrator event-driven)";
}

std::string override_integrator(Scene& scene, const std::string& name, double step) {
  System& system = scene.system;
  if (!name.empty()) {
    const IntegratorDescriptor* chosen = find_integrator(name);
    if (!chosen) return "--integrator: unknown integrator '" + name + "' (known: " + integrator_names_text() + ")";
    system.integrator = chosen->kind;
  }
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
