#pragma once
// Randomized initial conditions (the scene's `randomize` section): each listed coordinate of q or v
// is drawn per run, uniform in a range or normal, replacing its initial value. Draws come first
// from the run's own generator, so a run replays from its seed alone.
// Randomized scene parameters (`randomize_keys`): any scene key as --set names it (materials.mu,
// bodies[0].mass, bodies[0].shapes[0].size[1]...) drawn per run after the coordinates; the run
// then uses the scene read again with those keys set, its coordinates drawn as above.
#include <string>
#include <vector>

#include "core/state.hpp"
#include "scenes/scene_overrides.hpp"
#include "numerics/rng.hpp"

namespace impactsim {

// How a randomized value is drawn: uniform in [a, b], or normal with mean a and standard deviation b.
enum class RandomLaw { uniform, normal };

// One draw from rng.
double draw_value(RandomLaw law, double a, double b, Rng& rng);

struct RandomCoordinate {
  std::string name;            // a q or v name, "<body>.<coordinate>"
  bool velocity = false;       // true: an entry of v
  int index = 0;               // into q or v
  using Law = RandomLaw;
  Law law = Law::uniform;
  double a = 0.0, b = 0.0;     // uniform: [a, b]; normal: mean a, standard deviation b (radians for angles)
};

struct RandomParameter {
  std::string key;         // a scene key path, as --set takes it
  using Law = RandomLaw;
  Law law = Law::uniform;
  double a = 0.0, b = 0.0;  // uniform: [a, b]; normal: mean a, standard deviation b
  int line = 0, column = 0;  // where the scene lists it, for messages
};

// The initial state of one run, and the values drawn (one per randomized coordinate).
State draw_initial_state(const State& initial, const std::vector<RandomCoordinate>& randomize, Rng& rng,
                         std::vector<double>& drawn);

// One value per randomized parameter, drawn in order from rng.
std::vector<double> draw_parameters(const std::vector<RandomParameter>& parameters, Rng& rng);

// The overrides that set each parameter to its drawn value (written to round-trip exactly).
std::vector<SceneOverride> parameter_overrides(const std::vector<RandomParameter>& parameters,
                                               const std::vector<double>& values);

}  // namespace impactsim
