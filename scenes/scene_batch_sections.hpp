#pragma once
// The sections a batch reads: `randomize` (initial coordinates drawn per run), `randomize_keys`
// (scene parameters drawn per run) and `outcomes` (extra columns of runs.csv).
#include <vector>

#include "collision/contact.hpp"
#include "core/model.hpp"
#include "scenes/scene.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {

std::vector<RandomCoordinate> read_randomize(const Field& f, const Model& model);
std::vector<RandomParameter> read_randomize_keys(const Field& f);
std::vector<OutcomeDef> read_outcomes(const Field& f, const Model& model, const std::vector<ContactDef>& contacts);

}  // namespace impactsim
