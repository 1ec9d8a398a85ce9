#pragma once
// The `simulation` and `output` sections: times, tolerances, step limits, the event loop's contact
// settings, the law (and every law's section), the integrator (and its section), the seed.
#include "scenes/scene.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {

// simulation (required) and output into scene, once its model, contacts and pins are read.
void read_simulation_sections(const Field& root, Scene& scene);

}  // namespace impactsim
