#pragma once
// A number as messages print it: six significant digits, exponent when large or small
// (std::to_string(1e308) prints 309 digits, std::to_string(1e-9) prints 0.000000).
#include <cstdio>
#include <string>

namespace impactsim {

inline std::string short_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

}  // namespace impactsim
