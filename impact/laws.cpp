#include "impact/laws.hpp"

#include "impact/anitescu_potra.hpp"

namespace impactsim {

std::vector<std::string> law_names() { return {"anitescu-potra"}; }

std::unique_ptr<ImpactLaw> make_law(const std::string& name) {
  if (name == "anitescu-potra") return std::make_unique<AnitescuPotraLaw>();
  return nullptr;
}

}  // namespace impactsim
