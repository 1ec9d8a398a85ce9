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
  std::string_view section;   // "" (top level), "world", "bodies", "bodies.joint", "shapes", ...
  std::string_view key;
  std::string_view type;      // what the value must be
  std::string_view fallback;  // the default, "required", or empty
  std::string_view meaning;   // units and what it does
  std::string_view only;      // shapes: the shape types that take it; bodies.joint: the joint types; else empty
};

// Every key of every section, in the order the README lists them.
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
