#pragma once
// The parts of a scene that only the fixed-step integrators use: `constraints` (pins) and the
// `simulation.integrator`, `simulation.time_stepping` and `simulation.drumwright` keys.
#include "scenes/scene.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {

std::vector<PinDef> read_pins(const Field& list, const Model& model, const Eigen::VectorXd& q);
// Reads the integrator keys of `simulation` into system (after its contact settings and pins).
void read_integrator(const Field& simulation, const Field& constraints, System& system);

}  // namespace impactsim
