// The command line itself: usage errors, help, the laws it knows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "app/commands.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(Cli, UsageErrorsExitWithOne) {
  EXPECT_EQ(impactsim("").code, kExitUsage);
  EXPECT_EQ(impactsim("run").code, kExitUsage);
  EXPECT_EQ(impactsim("frobnicate").code, kExitUsage);
  EXPECT_EQ(impactsim("run x.yaml --no-such-flag").code, kExitUsage);
}

TEST(Cli, EverySubcommandHasHelp) {
  for (const std::string cmd : {"", "run ", "check ", "impact ", "converge "}) {
    const Result r = impactsim(cmd + "--help");
    EXPECT_EQ(r.code, 0) << cmd;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << cmd << r.out;
  }
}

TEST(Cli, UnknownLawOnTheCommandLineIsAUsageError) {
  const Result r = impactsim("run " + scene("rocking_block.yaml") + " --law nope -o " + fresh_dir("law").string());
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_NE(r.err.find("unknown impact law 'nope'"), std::string::npos) << r.err;
}

// Values the command line once took silently (NaN steps, clamped seeds, an empty directory) or
// reported with a 309-digit bound.
TEST(Cli, BadValuesAreRefusedWithTheValueAsGiven) {
  const std::string rocking = scene("rocking_block.yaml");
  const std::string out = " -q -o " + fresh_dir("values").string();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"run " + rocking + " --step nan" + out, "--step: must be a finite number > 0, found 'nan'"},
      {"impact " + rocking + " --samples 0" + out, "--samples: must be a whole number from 1 to 9223372036854775807, found '0'"},
      {"run " + rocking + " --seed 9223372036854775808" + out, "found '9223372036854775808'"},
      {"batch " + rocking + " --runs 1e3" + out, "--runs: must be a whole number from 1"},
      {"run " + rocking + " -o ''", "--output: must not be empty"},
      {"frobnicate", "unknown command 'frobnicate'"},
      {"run " + scene("drumwright_pendulum.yaml") + " --step 1e-300" + out,
       "--step: t_end / h = 1e+300 steps of h = 1e-300 s, more than simulation.max_steps = 10000000"}};
  for (const auto& [args, message] : cases) {
    const Result r = impactsim(args);
    EXPECT_EQ(r.code, kExitUsage) << args;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
    EXPECT_EQ(r.err.find("000000000000000000000"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace impactsim
