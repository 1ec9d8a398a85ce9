#pragma once
// The impact laws by name: one descriptor per law, which the scene loader, `check`, metadata.json,
// the command's --help and scenes/README.md all iterate. A new law is its own file (the law and its
// descriptor) and its line in the registry (impact/laws.cpp); register_law adds one at run time.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "impact/impact_law.hpp"
#include "numerics/settings.hpp"

namespace impactsim {

// What of a scene's materials a law leaves out of its model, as its paper states it (routh ignores
// restitution; propagative ignores friction and keeps one restitution per impact, set by its
// setting `restitution_setting` or, while that is unset (negative), the smallest e of the impact).
struct LawModel {
  bool friction = true;
  bool restitution = true;
  bool per_contact_restitution = true;
  std::string restitution_setting;
};

struct LawDescriptor {
  std::string name;                  // as scenes and --law give it
  std::string summary;               // one line, for --help and the docs
  LawModel model;
  std::vector<SettingSpec> settings;  // the keys of simulation.<name>
  // A problem only the settings together show ({} when none), checked after they are read.
  std::function<SettingProblem(const Settings&)> check;
  std::function<std::unique_ptr<ImpactLaw>(const Settings&)> make;
};

// Every registered law, in the order --help and the docs list them.
const std::vector<const LawDescriptor*>& law_registry();
// nullptr for an unknown name.
const LawDescriptor* find_law(std::string_view name);
// Adds a law (tests, programs built on the library). Call before any scene is loaded; not
// thread-safe. A second law of the same name throws std::logic_error.
void register_law(const LawDescriptor& law);

// The names find_law accepts, "a, b, c" as messages list them.
std::vector<std::string> law_names();
std::string law_names_text();

// The settings of every law, each law's with its defaults unless a scene gave them.
class LawSettings {
 public:
  LawSettings();
  // The settings of a registered law; std::logic_error for an unknown one.
  const Settings& of(const std::string& law) const;
  Settings& of(const std::string& law);

 private:
  std::map<std::string, Settings, std::less<>> by_law_;
};

// nullptr for an unknown name.
std::unique_ptr<ImpactLaw> make_law(const std::string& name, const LawSettings& settings = {});

}  // namespace impactsim
