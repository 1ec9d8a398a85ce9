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
  EXPECT_NE(r.err.find("unknown impact law 'nope' (known: anitescu-potra, routh, sequential, propagative)"),
            std::string::npos)
      << r.err;
}

// --help shows the defaults of the options that have one.
TEST(Cli, HelpShowsDefaults) {
  const Result batch = impactsim("batch --help");
  EXPECT_NE(batch.out.find("--runs INT:INTEGER 1..9223372036854775807=100"), std::string::npos) << batch.out;
  EXPECT_NE(batch.out.find("--threads INT:INTEGER 1..256=1"), std::string::npos) << batch.out;
  const Result impact = impactsim("impact --help");
  EXPECT_NE(impact.out.find("=1024"), std::string::npos) << impact.out;
}

// A fixed-step integrator resolves contacts by its own step problem: --law with it would be a
// silent no-op, so it is refused, for run and batch alike; converge's --law names the reference's.
TEST(Cli, LawWithAFixedStepIntegratorIsAUsageError) {
  const std::string out = " -q -o " + fresh_dir("fixed").string();
  for (const std::string& args : {"run " + scene("rocking_block.yaml") + " --integrator time-stepping --law routh",
                                 "run " + scene("drumwright_pendulum.yaml") + " --law sequential",
                                 "batch " + scene("drumwright_pendulum.yaml") + " --runs 2 --law routh"}) {
    const Result r = impactsim(args + out);
    EXPECT_EQ(r.code, kExitUsage) << args;
    EXPECT_NE(r.err.find("integrator resolves contacts by its own step problem and uses no impact law"),
              std::string::npos)
        << args << ": " << r.err;
  }
  EXPECT_EQ(impactsim("run " + scene("rocking_block.yaml") + " --integrator time-stepping" + out).code, 0);
}

// Values the command line once took silently (NaN steps, clamped seeds, an empty directory) or
// reported with a 309-digit bound.
TEST(Cli, BadValuesAreRefusedWithTheValueAsGiven) {
  const std::string rocking = scene("rocking_block.yaml");
  const std::string out = " -q -o " + fresh_dir("values").string();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"run " + rocking + " --step nan" + out, "--step: must be a finite number > 0, found 'nan'"},
      {"impact " + rocking + " --samples 0" + out, "--samples: must be at least 1, found '0'"},
      {"batch " + rocking + " --runs 0" + out, "--runs: must be at least 1, found '0'"},
      {"batch " + rocking + " --runs -3" + out, "--runs: must be at least 1, found '-3'"},
      {"impact " + rocking + " --threads 300" + out, "--threads: must be a whole number from 1 to 256, found '300'"},
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
