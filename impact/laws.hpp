#pragma once
// Impact laws by name, as scenes and the command line give them.
#include <memory>
#include <string>
#include <vector>

#include "impact/impact_law.hpp"

namespace impactsim {

// The names make_law accepts.
std::vector<std::string> law_names();
// nullptr for an unknown name.
std::unique_ptr<ImpactLaw> make_law(const std::string& name);

}  // namespace impactsim
