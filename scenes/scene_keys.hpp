#pragma once
// The scene format's keys, declared once: the loader accepts exactly these in each section (an
// unknown key is a located error listing them), and scenes/README.md's key tables are these rows
// (tests/scenes/scene_keys_test.cpp compares them). Keys whose names depend on the model (the
// coordinates of `initial` and `randomize`) are not listed here.
#include <string>
#include <string_view>
#include <vector>

#include "scenes/yaml_field.hpp"

namespace impactsim {

struct SceneKey {
  std::string section;   // "" (top level), "world", "bodies", "bodies.joint", "shapes", ...
  std::string key;
  std::string type;      // what the value must be
  std::string fallback;  // the default, "required", or empty
  std::string meaning;   // units and what it does
  std::string only;      // shapes: the shape types that take it; bodies.joint: the joint types; else empty
};

// Every key of every section, in the order the README lists them; the laws' and integrators'
// sections come from their descriptors (impact/laws.hpp, core/integrators.hpp). Not thread-safe
// while a law is being registered.
const std::vector<SceneKey>& scene_keys();

// The sections, in order.
std::vector<std::string_view> scene_sections();

// The keys of `section`; with a variant (a shape or joint type), only those that apply to it.
std::vector<std::string> section_keys(std::string_view section, std::string_view variant = "");

// The section's rows as the README's markdown table: | key | type | default | meaning |.
std::string section_table(std::string_view section);

// f must be a map of the section's keys (those that apply to `variant`): Field::expect_map.
void expect_section(const Field& f, std::string_view section, std::string_view variant = "");

}  // namespace impactsim
