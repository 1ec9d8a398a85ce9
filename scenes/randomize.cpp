#include "scenes/randomize.hpp"

#include <charconv>
#include <random>

namespace impactsim {

double draw_value(RandomLaw law, double a, double b, Rng& rng) {
  return law == RandomLaw::uniform ? std::uniform_real_distribution<double>(a, b)(rng)
                                   : std::normal_distribution<double>(a, b)(rng);
}

State draw_initial_state(const State& initial, const std::vector<RandomCoordinate>& randomize, Rng& rng,
                         std::vector<double>& drawn) {
  State s = initial;
  drawn.clear();
  for (const RandomCoordinate& r : randomize) {
    const double x = draw_value(r.law, r.a, r.b, rng);
    (r.velocity ? s.v : s.q)[r.index] = x;
    drawn.push_back(x);
  }
  return s;
}

std::vector<double> draw_parameters(const std::vector<RandomParameter>& parameters, Rng& rng) {
  std::vector<double> values;
  for (const RandomParameter& p : parameters)
    values.push_back(draw_value(p.law, p.a, p.b, rng));
  return values;
}

std::vector<SceneOverride> parameter_overrides(const std::vector<RandomParameter>& parameters,
                                               const std::vector<double>& values) {
  std::vector<SceneOverride> out;
  for (size_t k = 0; k < parameters.size() && k < values.size(); ++k) {
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, values[k]);  // shortest exact text
    out.push_back({parameters[k].key, std::string(buffer, end)});
  }
  return out;
}

}  // namespace impactsim
