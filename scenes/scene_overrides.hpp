#pragma once
// Overrides of scene keys from the command line (`--set KEY=VALUE`): KEY is a key path as the
// loader's messages name it ("materials.mu", "simulation.routh.h", "bodies[0].initial.vx"), VALUE
// is YAML ("0.25", "[0, 0, 1]", "{h: 0.1, steps: 20}"). Each replaces (or adds) that node of the
// parsed document before the scene is built, so an override is validated exactly like the file;
// a problem in it is reported as "--set KEY=VALUE: key: message".
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace impactsim {

struct SceneOverride {
  std::string key;
  std::string value;
  std::string text() const { return key + "=" + value; }
};

// "KEY=VALUE" split at the first '='. Throws SceneError (file "--set TEXT") when there is no '=',
// the key is empty or not a key path.
SceneOverride parse_override(const std::string& text);

// Sets every override's node in root, in order (a later one wins). Intermediate maps are created;
// a list index must exist. Throws SceneError naming the override.
void apply_overrides(YAML::Node& root, const std::vector<SceneOverride>& overrides);

// The text whose SHA-256 identifies the scene as run: the file's text, followed by one comment line
// "# --set KEY=VALUE" per override (none: the file's text itself).
std::string overridden_text(const std::string& text, const std::vector<SceneOverride>& overrides);

}  // namespace impactsim
