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

// What of a scene's materials a law leaves out of its model, as its paper states it:
// - routh: restitution. Halm and Posa's law has no coefficient of restitution; an impact ends when
//   no contact approaches (their Algorithm 1), so every e is ignored.
// - propagative: friction. Seghete and Murphey's reflections are frictionless (every mu is ignored),
//   and one energetic coefficient R serves the whole impact (by default the smallest e of its
//   contacts), so differing e per contact are not kept.
// anitescu-potra and sequential use both mu and e of every contact.
struct LawModel {
  bool friction = true;
  bool restitution = true;
  bool per_contact_restitution = true;
};
LawModel law_model(const std::string& name);

// The names make_law accepts.
std::vector<std::string> law_names();
// nullptr for an unknown name.
std::unique_ptr<ImpactLaw> make_law(const std::string& name, const LawSettings& settings = {});

}  // namespace impactsim
