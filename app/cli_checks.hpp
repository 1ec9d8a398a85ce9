#pragma once
// Checks of command-line values, with messages that say what is wanted and what was given
// (CLI11's own range checks printed DBL_MAX as a 309-digit number and accepted NaN steps).
#include <string>

#include <CLI/Error.hpp>
#include <CLI/Validators.hpp>

namespace impactsim {

// A finite number > 0 ("--step nan" was once taken for "no step given").
CLI::Validator positive_finite();
// A whole number in [lo, hi], written as digits (no exponent, no fraction).
CLI::Validator whole_number(long long lo, long long hi);
// A non-empty text ("-o ''" was once taken for "the default directory").
CLI::Validator not_empty();

// The message for an unknown first argument, or "" if `word` is a command or an option.
std::string unknown_command(const std::string& word);

}  // namespace impactsim
