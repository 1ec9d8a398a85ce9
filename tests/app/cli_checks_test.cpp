// Command-line value checks: what they accept, and messages that show the value as given.
#include <gtest/gtest.h>

#include "app/cli_checks.hpp"

namespace impactsim {
namespace {

std::string check(const CLI::Validator& v, std::string text) { return v(text); }

TEST(CliChecks, PositiveFiniteRefusesNanInfinityAndZero) {
  const CLI::Validator v = positive_finite();
  EXPECT_EQ(check(v, "0.001"), "");
  EXPECT_EQ(check(v, "1e-300"), "");  // positive; whether the run can afford it is checked later
  for (const char* bad : {"nan", "inf", "-1", "0", "", "1e400", "0.1x"})
    EXPECT_EQ(check(v, bad), "must be a finite number > 0, found '" + std::string(bad) + "'") << bad;
}

TEST(CliChecks, WholeNumbersAreDigitsWithinTheRange) {
  const CLI::Validator v = whole_number(1, 256);
  EXPECT_EQ(check(v, "1"), "");
  EXPECT_EQ(check(v, "256"), "");
  for (const char* bad : {"257", "1e3", "2.5", "", "99999999999999999999"})
    EXPECT_EQ(check(v, bad), "must be a whole number from 1 to 256, found '" + std::string(bad) + "'") << bad;
  // Below the range the bound is what matters ("--runs 0": must be at least 1).
  for (const char* low : {"0", "-3"})
    EXPECT_EQ(check(v, low), "must be at least 1, found '" + std::string(low) + "'") << low;
}

TEST(CliChecks, EmptyTextIsRefused) {
  EXPECT_EQ(check(not_empty(), "out"), "");
  EXPECT_EQ(check(not_empty(), ""), "must not be empty");
}

TEST(CliChecks, UnknownCommandsAreNamed) {
  EXPECT_EQ(unknown_command("run"), "");
  EXPECT_EQ(unknown_command("--help"), "");
  EXPECT_EQ(unknown_command("frobnicate"),
            "unknown command 'frobnicate' (commands: run, check, impact, batch, converge, merge, sweep, view; see --help)");
}

}  // namespace
}  // namespace impactsim
