#pragma once
// The grid of `impactsim sweep`: each --param names a scene key (as --set does) and its values,
// either `KEY=START:STOP:N` (N evenly spaced numbers from START to STOP, both included) or
// `KEY=V1,V2,...` (a list of YAML values; commas inside [...] or {...} do not split). The grid is
// every combination, the first --param varying slowest.
#include <string>
#include <vector>

namespace impactsim {

struct SweepParam {
  std::string key;
  std::vector<std::string> values;  // YAML text, as --set would take it
};

// Throws std::invalid_argument with a message naming what is wrong.
SweepParam parse_sweep_param(const std::string& text);

// The grid's points in order; each point's overrides as "KEY=VALUE", one per parameter. Throws
// std::invalid_argument when two parameters name the same key or the grid exceeds max_points.
std::vector<std::vector<std::string>> sweep_points(const std::vector<SweepParam>& params, size_t max_points = 100000);

}  // namespace impactsim
