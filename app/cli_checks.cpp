#include "app/cli_checks.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace impactsim {

CLI::Validator positive_finite() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(x) || !(x > 0))
          return "must be a finite number > 0, found '" + text + "'";
        return "";
      },
      "NUMBER > 0");
}

CLI::Validator whole_number(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        long long x = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), x);
        const bool whole = !text.empty() && error == std::errc() && end == text.data() + text.size();
        if (whole && x < lo) return "must be at least " + std::to_string(lo) + ", found '" + text + "'";
        if (!whole || x > hi)
          return "must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ", found '" +
                 text + "'";
        return "";
      },
      "INTEGER " + std::to_string(lo) + ".." + std::to_string(hi));
}

CLI::Validator not_empty() {
  return CLI::Validator(
      [](std::string& text) -> std::string { return text.empty() ? "must not be empty" : ""; }, "TEXT");
}

std::string unknown_command(const std::string& word) {
  if (word.empty() || word[0] == '-') return "";
  for (const char* command : {"run", "check", "impact", "batch", "converge", "merge", "sweep", "view"})
    if (word == command) return "";
  return "unknown command '" + word + "' (commands: run, check, impact, batch, converge, merge, sweep, view; see --help)";
}

}  // namespace impactsim
