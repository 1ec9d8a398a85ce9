#pragma once
// The `materials` and `contacts` sections of a scene (schema in scenes/README.md).
#include <vector>

#include "collision/contact.hpp"
#include "core/model.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {

// Contacts with their friction and restitution resolved: per contact, else per body pair, else the
// scene's defaults. `materials` and `contacts` may be undefined Fields.
std::vector<ContactDef> read_contacts(const Field& contacts, const Field& materials, const Model& model,
                                      const std::vector<Geometry>& geometries);

}  // namespace impactsim
