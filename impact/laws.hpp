#pragma once
// Impact laws by name, as scenes and the command line give them.
#include <memory>
#include <string>
#include <vector>

#include "impact/impact_law.hpp"
#include "impact/propagative.hpp"
#include "impact/routh.hpp"
#include "impact/sequential.hpp"

namespace impactsim {

// The settings of every law; a scene holds one of these whichever law it uses.
struct LawSettings {
  RouthSettings routh;
  SequentialSettings sequential;
  PropagativeSettings propagative;
};

// The names make_law accepts.
std::vector<std::string> law_names();
// nullptr for an unknown name.
std::unique_ptr<ImpactLaw> make_law(const std::string& name, const LawSettings& settings = {});

}  // namespace impactsim
