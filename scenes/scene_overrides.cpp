#include "scenes/scene_overrides.hpp"

#include <cctype>

#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

// One step of a key path: a map key, or a list index.
struct Step {
  std::string key;
  int index = -1;  // >= 0: a list index
};

[[noreturn]] void fail(const SceneOverride& o, const std::string& key, const std::string& message) {
  throw SceneError("--set " + o.text(), 0, 0, key, message);
}

std::vector<Step> key_path(const SceneOverride& o) {
  std::vector<Step> steps;
  size_t i = 0;
  const std::string& k = o.key;
  const auto bad = [&] { fail(o, "", "'" + k + "' is not a key path (keys joined by '.', list indices as [i])"); };
  while (i < k.size()) {
    size_t j = i;
    while (j < k.size() && k[j] != '.' && k[j] != '[') ++j;
    if (j == i) bad();
    steps.push_back({k.substr(i, j - i)});
    while (j < k.size() && k[j] == '[') {
      const size_t close = k.find(']', j);
      if (close == std::string::npos || close == j + 1 || close - j > 7) bad();
      int index = 0;
      for (size_t d = j + 1; d < close; ++d) {
        if (!std::isdigit(static_cast<unsigned char>(k[d]))) bad();
        index = 10 * index + (k[d] - '0');
      }
      steps.push_back({"", index});
      j = close + 1;
    }
    if (j < k.size()) {
      if (k[j] != '.' || j + 1 == k.size()) bad();
      ++j;
    }
    i = j;
  }
  if (steps.empty()) bad();
  return steps;
}

std::string prefix(const std::vector<Step>& steps, size_t n) {
  std::string out;
  for (size_t k = 0; k < n; ++k) {
    if (steps[k].index >= 0) {
      out.append("[").append(std::to_string(steps[k].index)).append("]");
      continue;
    }
    if (k) out += '.';
    out += steps[k].key;
  }
  return out;
}

// Sets steps[k..] below node to value. node is a handle sharing the document's node.
void set_below(YAML::Node node, const std::vector<Step>& steps, size_t k, const YAML::Node& value,
               const SceneOverride& o) {
  const Step& step = steps[k];
  const bool last = k + 1 == steps.size();
  if (step.index >= 0) {
    if (!node.IsSequence() || step.index >= static_cast<int>(node.size()))
      fail(o, prefix(steps, k + 1), node.IsSequence() ? "the list has " + std::to_string(node.size()) + " entries"
                                                      : prefix(steps, k) + " is not a list");
    if (last) {
      node[step.index] = value;
      return;
    }
    set_below(node[step.index], steps, k + 1, value, o);
    return;
  }
  if (node.IsDefined() && !node.IsNull() && !node.IsMap())
    fail(o, prefix(steps, k + 1), (k ? prefix(steps, k) : std::string("the scene")) + " is not a map");
  if (last) {
    node[step.key] = value;
    return;
  }
  if (!node[step.key].IsDefined() || node[step.key].IsNull())
    node[step.key] = YAML::Node(steps[k + 1].index >= 0 ? YAML::NodeType::Sequence : YAML::NodeType::Map);
  set_below(node[step.key], steps, k + 1, value, o);
}

}  // namespace

SceneOverride parse_override(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos) throw SceneError("--set " + text, 0, 0, "", "expected KEY=VALUE, e.g. materials.mu=0.25");
  SceneOverride o{text.substr(0, eq), text.substr(eq + 1)};
  key_path(o);  // checks the key
  return o;
}

void apply_overrides(YAML::Node& root, const std::vector<SceneOverride>& overrides) {
  for (const SceneOverride& o : overrides) {
    YAML::Node value;
    try {
      // One document, as a scene file holds: a second one would be dropped without a word.
      value = parse_yaml_text(o.value, "--set", "a --set value");
    } catch (const SceneError& e) {
      fail(o, o.key, e.message());
    }
    set_below(root, key_path(o), 0, value, o);
  }
}

std::string overridden_text(const std::string& text, const std::vector<SceneOverride>& overrides) {
  std::string out = text;
  if (overrides.empty()) return out;
  if (!out.empty() && out.back() != '\n') out += '\n';
  for (const SceneOverride& o : overrides) out += "# --set " + o.text() + "\n";
  return out;
}

}  // namespace impactsim
