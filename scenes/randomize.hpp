#pragma once
// Randomized initial conditions (the scene's `randomize` section): each listed coordinate of q or v
// is drawn per run, uniform in a range or normal, replacing its initial value. Draws come first
// from the run's own generator, so a run replays from its seed alone.
#include <string>
#include <vector>

#include "core/state.hpp"
#include "impact/rng.hpp"

namespace impactsim {

struct RandomCoordinate {
  std::string name;            // a q or v name, "<body>.<coordinate>"
  bool velocity = false;       // true: an entry of v
  int index = 0;               // into q or v
  enum class Law { uniform, normal } law = Law::uniform;
  double a = 0.0, b = 0.0;     // uniform: [a, b]; normal: mean a, standard deviation b (radians for angles)
};

// The initial state of one run, and the values drawn (one per randomized coordinate).
State draw_initial_state(const State& initial, const std::vector<RandomCoordinate>& randomize, Rng& rng,
                         std::vector<double>& drawn);

}  // namespace impactsim
