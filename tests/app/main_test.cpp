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

}  // namespace
}  // namespace impactsim
