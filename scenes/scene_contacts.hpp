#pragma once
// The `materials`, `contacts` and `collide` sections of a scene (schema in scenes/README.md).
#include <vector>

#include "collision/contact.hpp"
#include "core/model.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {

// Contacts with their friction and restitution resolved: per contact, else per body pair, else the
// scene's defaults. The listed `contacts` come first, then those `collide` makes from the shapes
// (collision/auto_contacts.hpp). Any of the three Fields may be undefined.
std::vector<ContactDef> read_contacts(const Field& contacts, const Field& materials, const Field& collide,
                                      const Model& model, const std::vector<Geometry>& geometries);

}  // namespace impactsim
