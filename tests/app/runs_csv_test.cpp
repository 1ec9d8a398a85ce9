// Reading runs.csv: cells split at commas, complete lines only, with the offsets resume cuts at.
#include <gtest/gtest.h>

#include "app/runs_csv.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(RunsCsv, CellsKeepEmptyOnes) {
  EXPECT_EQ(split_cells("a,,b,"), (std::vector<std::string>{"a", "", "b", ""}));
  EXPECT_EQ(split_cells(""), (std::vector<std::string>{""}));
}

TEST(RunsCsv, APartialLastLineIsNotReturned) {
  const fs::path dir = fresh_dir("runs_csv");
  std::ofstream(dir / "runs.csv", std::ios::binary) << "run,x\n0,1.5\n1,2.5\n2,3";  // killed mid-row
  std::vector<std::string> lines;
  std::vector<std::uint64_t> ends;
  for_each_line(dir / "runs.csv", [&](const std::string& line, std::uint64_t end) {
    lines.push_back(line);
    ends.push_back(end);
  });
  EXPECT_EQ(lines, (std::vector<std::string>{"run,x", "0,1.5", "1,2.5"}));
  EXPECT_EQ(ends, (std::vector<std::uint64_t>{6, 12, 18}));
  for_each_line(dir / "missing.csv", [&](const std::string&, std::uint64_t) { FAIL() << "no file, no lines"; });
}

}  // namespace
}  // namespace impactsim
