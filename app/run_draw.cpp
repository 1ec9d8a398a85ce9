#include "app/run_draw.hpp"

#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

// Whether a drawn scene has the base's coordinates, contacts and outcomes (runs.csv's columns and
// what a replay's files hold).
bool same_structure(const Scene& a, const Scene& b) {
  const Model &ma = a.system.model, &mb = b.system.model;
  const std::vector<ContactDef>&ca = a.system.contacts.contacts(), &cb = b.system.contacts.contacts();
  if (ma.q_names != mb.q_names || ma.v_names != mb.v_names || ca.size() != cb.size() ||
      a.outcomes.size() != b.outcomes.size())
    return false;
  for (size_t i = 0; i < ca.size(); ++i)
    if (ca[i].name != cb[i].name) return false;
  for (size_t k = 0; k < a.outcomes.size(); ++k)
    if (a.outcomes[k].name != b.outcomes[k].name) return false;
  return true;
}

}  // namespace

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
  if (!same_structure(base, *d.scene)) {
    d.scene.reset();
    d.error = "the drawn parameters change the scene's coordinates, contacts or outcomes (runs.csv's columns)";
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
