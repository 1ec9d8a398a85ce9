#include "impact/laws.hpp"

#include "impact/anitescu_potra.hpp"

namespace impactsim {

std::vector<std::string> law_names() { return {"anitescu-potra", "routh", "sequential", "propagative"}; }

LawModel law_model(const std::string& name) {
  if (name == "routh") return {.friction = true, .restitution = false, .per_contact_restitution = false};
  if (name == "propagative") return {.friction = false, .restitution = true, .per_contact_restitution = false};
  return {};
}

std::unique_ptr<ImpactLaw> make_law(const std::string& name, const LawSettings& settings) {
  if (name == "anitescu-potra") return std::make_unique<AnitescuPotraLaw>();
  if (name == "routh") return std::make_unique<RouthLaw>(settings.routh);
  if (name == "sequential") return std::make_unique<SequentialLaw>(settings.sequential);
  if (name == "propagative") return std::make_unique<PropagativeLaw>(settings.propagative);
  return nullptr;
}

}  // namespace impactsim
