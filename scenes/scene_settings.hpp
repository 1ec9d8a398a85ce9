#pragma once
// The sections of a scene that belong to one law or integrator (simulation.routh,
// simulation.drumwright, ...), read as their declarations say (numerics/settings.hpp): each key's
// kind bounds its value, and a key no declaration holds is refused with the section's keys.
#include <string>
#include <vector>

#include "collision/contact.hpp"
#include "numerics/settings.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {

// The declared settings with the values the section `f` gives (simulation.routh), the defaults
// where it is undefined. Contact names are looked up in `contacts`.
Settings read_settings(const Field& f, const std::vector<SettingSpec>& specs, const std::vector<ContactDef>& contacts);

// A problem the settings together show, located at its key of `f` (the section itself for "").
[[noreturn]] void fail_at(const Field& f, const SettingProblem& problem);

// The index of the contact `f` names; a located error for an unknown name.
int contact_named(const Field& f, const std::vector<ContactDef>& contacts);

}  // namespace impactsim
