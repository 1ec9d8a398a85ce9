#include "app/sweep_grid.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace impactsim {
namespace {

bool parse_double(const std::string& text, double& x) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, x);
  return ec == std::errc() && ptr == end && std::isfinite(x);
}

// x to 12 significant digits of the range's scale: -0.2:0.2:5 gives -0.1 and 0, not
// -0.10000000000000002 and 1e-17 (the rounding error of the arithmetic, not a value anyone meant).
std::string grid_text(double x, double scale) {
  if (std::abs(x) <= 1e-12 * scale) x = 0;
  char buffer[32];
  const auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, x, std::chars_format::general, 12);
  return std::string(buffer, ptr);
}

// Splits at commas outside brackets and braces.
std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (char c : text) {
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

std::vector<std::string> range_values(const std::string& spec, const std::string& where) {
  const size_t a = spec.find(':'), b = spec.find(':', a + 1);
  if (b == std::string::npos || spec.find(':', b + 1) != std::string::npos)
    throw std::invalid_argument(where + ": a range is START:STOP:N");
  double start = 0, stop = 0, count = 0;
  if (!parse_double(spec.substr(0, a), start) || !parse_double(spec.substr(a + 1, b - a - 1), stop))
    throw std::invalid_argument(where + ": START and STOP must be finite numbers");
  if (!parse_double(spec.substr(b + 1), count) || count != std::floor(count) || count < 1 || count > 1e6)
    throw std::invalid_argument(where + ": N must be a whole number from 1 to 1000000");
  const long n = static_cast<long>(count);
  if (n == 1 && start != stop) throw std::invalid_argument(where + ": N = 1 needs START = STOP");
  std::vector<std::string> values;
  for (long k = 0; k < n; ++k) {
    const double x = n == 1 ? start : start + (stop - start) * static_cast<double>(k) / static_cast<double>(n - 1);
    values.push_back(grid_text(k == n - 1 ? stop : x, std::max(std::abs(start), std::abs(stop))));
  }
  return values;
}

}  // namespace

SweepParam parse_sweep_param(const std::string& text) {
  const std::string where = "--param " + text;
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw std::invalid_argument(where + ": expected KEY=START:STOP:N or KEY=V1,V2,...");
  SweepParam p{text.substr(0, eq), {}};
  const std::string spec = text.substr(eq + 1);
  const bool range = spec.find(':') != std::string::npos && spec.find_first_of("[{") == std::string::npos;
  p.values = range ? range_values(spec, where) : split_list(spec);
  for (const std::string& v : p.values)
    if (v.empty()) throw std::invalid_argument(where + ": an empty value");
  return p;
}

std::vector<std::vector<std::string>> sweep_points(const std::vector<SweepParam>& params, size_t max_points) {
  size_t total = 1;
  for (size_t i = 0; i < params.size(); ++i) {
    for (size_t j = 0; j < i; ++j)
      if (params[j].key == params[i].key) throw std::invalid_argument("--param " + params[i].key + " is given twice");
    if (params[i].values.empty() || total > max_points / params[i].values.size())
      throw std::invalid_argument("the grid has more than " + std::to_string(max_points) + " points");
    total *= params[i].values.size();
  }
  std::vector<std::vector<std::string>> points;
  if (params.empty()) return points;
  points.reserve(total);
  for (size_t index = 0; index < total; ++index) {
    std::vector<std::string> point(params.size());
    size_t rest = index;
    for (size_t i = params.size(); i-- > 0;) {  // the last parameter varies fastest
      point[i] = params[i].key + "=" + params[i].values[rest % params[i].values.size()];
      rest /= params[i].values.size();
    }
    points.push_back(std::move(point));
  }
  return points;
}

}  // namespace impactsim
