#include "scenes/randomize.hpp"

#include <random>

namespace impactsim {

State draw_initial_state(const State& initial, const std::vector<RandomCoordinate>& randomize, Rng& rng,
                         std::vector<double>& drawn) {
  State s = initial;
  drawn.clear();
  for (const RandomCoordinate& r : randomize) {
    const double x = r.law == RandomCoordinate::Law::uniform ? std::uniform_real_distribution<double>(r.a, r.b)(rng)
                                                             : std::normal_distribution<double>(r.a, r.b)(rng);
    (r.velocity ? s.v : s.q)[r.index] = x;
    drawn.push_back(x);
  }
  return s;
}

}  // namespace impactsim
