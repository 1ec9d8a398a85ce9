#pragma once
// What one batch run (and `run --run I`, its replay) starts from. Its generator draws, in order,
// the scene's `randomize` coordinates and then its `randomize_keys` parameters; with parameters
// the run uses the scene read again with them set (its own model, contacts, law settings), and
// the drawn coordinates replace that scene's initial values.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "impact/impact_law.hpp"
#include "scenes/scene.hpp"

namespace impactsim {

struct RunDraw {
  std::vector<double> coordinates;  // one per randomize entry
  std::vector<double> parameters;   // one per randomize_keys entry
  std::optional<Scene> scene;       // the scene with the parameters set; empty without randomize_keys
  State initial;
  std::string error;                // drawn parameters the scene rejects, or that change its coordinates,
                                    // contacts or outcomes (then scene is empty)

  const Scene& scene_or(const Scene& base) const { return scene ? *scene : base; }
};

RunDraw draw_run(const Scene& base, Rng& rng);

// The runs.csv header cells of the draws: init.<coordinate> ..., param.<key> ...
std::vector<std::string> draw_columns(const Scene& scene);

}  // namespace impactsim
