#include "impact/laws.hpp"

#include <stdexcept>

namespace impactsim {

// The registry: each law's descriptor is defined in the law's own file.
const LawDescriptor& anitescu_potra_law();
const LawDescriptor& routh_law();
const LawDescriptor& sequential_law();
const LawDescriptor& propagative_law();

namespace {

std::vector<const LawDescriptor*>& registry() {
  static std::vector<const LawDescriptor*> laws = {
      &anitescu_potra_law(),
      &routh_law(),
      &sequential_law(),
      &propagative_law(),
  };
  return laws;
}

}  // namespace

const std::vector<const LawDescriptor*>& law_registry() { return registry(); }

const LawDescriptor* find_law(std::string_view name) {
  for (const LawDescriptor* law : registry())
    if (law->name == name) return law;
  return nullptr;
}

void register_law(const LawDescriptor& law) {
  if (find_law(law.name)) throw std::logic_error("a law named '" + law.name + "' is registered already");
  registry().push_back(&law);
}

std::vector<std::string> law_names() {
  std::vector<std::string> names;
  for (const LawDescriptor* law : registry()) names.push_back(law->name);
  return names;
}

std::string law_names_text() {
  std::string text;
  for (const LawDescriptor* law : registry()) text += (text.empty() ? "" : ", ") + law->name;
  return text;
}

LawSettings::LawSettings() {
  for (const LawDescriptor* law : registry()) by_law_.emplace(law->name, Settings(law->settings));
}

const Settings& LawSettings::of(const std::string& law) const {
  const auto it = by_law_.find(law);
  if (it == by_law_.end()) throw std::logic_error("no settings of a law named '" + law + "'");
  return it->second;
}

Settings& LawSettings::of(const std::string& law) {
  return const_cast<Settings&>(static_cast<const LawSettings&>(*this).of(law));
}

std::unique_ptr<ImpactLaw> make_law(const std::string& name, const LawSettings& settings) {
  const LawDescriptor* law = find_law(name);
  return law ? law->make(settings.of(name)) : nullptr;
}

}  // namespace impactsim
