#include "app/run_draw.hpp"

#include "scenes/yaml_field.hpp"

namespace impactsim {

RunDraw draw_run(const Scene& base, Rng& rng) {
  RunDraw d;
  d.initial = draw_initial_state(base.initial, base.randomize, rng, d.coordinates);
  if (base.randomize_keys.empty()) return d;
  d.parameters = draw_parameters(base.randomize_keys, rng);
  try {
    d.scene = scene_with_parameters(base, d.parameters);
  } catch (const SceneError& e) {
    d.error = e.what();
    return d;
  }
  d.initial = d.scene->initial;
  for (size_t k = 0; k < base.randomize.size(); ++k) {
    const RandomCoordinate& r = base.randomize[k];
    (r.velocity ? d.initial.v : d.initial.q)[r.index] = d.coordinates[k];
  }
  return d;
}

std::vector<std::string> draw_columns(const Scene& scene) {
  std::vector<std::string> c;
  for (const RandomCoordinate& r : scene.randomize) c.push_back("init." + r.name);
  for (const RandomParameter& p : scene.randomize_keys) c.push_back("param." + p.key);
  return c;
}

}  // namespace impactsim
