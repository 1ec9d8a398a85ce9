// runs.h5 from a runs.csv: column kinds from the cells (numbers, text, and seed always text), empty
// number cells as NaN, labels as wide as the longest, and located failures.
#include "app/runs_hdf5.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "tests/app/cli.hpp"
#include "tests/app/hdf5_read.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(RunsHdf5, ColumnsTakeTheirKindFromTheirCells) {
  const fs::path dir = fresh_dir("runs_h5_kinds");
  write_file(dir / "runs.csv",
             "run,seed,status,t_rest,final.x,note,message\n"
             "0,18446744073709551615,ok,0.5,1.25,a,\n"
             "1,7,failed,,-3e-12,bb,stopped at t = 1; again\n"
             "2,8,ok,0.25,0");  // a partial last line: not a row
  EXPECT_EQ(write_runs_hdf5(dir / "runs.csv", dir / "runs.h5"), 2);
  const Hdf5File f((dir / "runs.h5").string());
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f.columns(), (std::vector<std::string>{"run", "seed", "status", "t_rest", "final.x", "note", "message"}));
  EXPECT_EQ(f.numbers("run"), (std::vector<double>{0, 1}));
  EXPECT_EQ(f.labels("seed"), (std::vector<std::string>{"18446744073709551615", "7"}));  // exact, unlike a double
  EXPECT_EQ(f.labels("status"), (std::vector<std::string>{"ok", "failed"}));
  const std::vector<double> t_rest = f.numbers("t_rest");
  ASSERT_EQ(t_rest.size(), 2u);
  EXPECT_EQ(t_rest[0], 0.5);
  EXPECT_TRUE(std::isnan(t_rest[1]));
  EXPECT_EQ(f.numbers("final.x"), (std::vector<double>{1.25, -3e-12}));
  EXPECT_EQ(f.labels("note"), (std::vector<std::string>{"a", "bb"}));  // not numbers: text
  EXPECT_EQ(f.labels("message"), (std::vector<std::string>{"", "stopped at t = 1; again"}));
}

// The message write_runs_hdf5 throws for a runs.csv with `text`, or "converted".
std::string conversion_error(const fs::path& dir, const std::string& name, const std::string& text) {
  write_file(dir / name, text);
  try {
    write_runs_hdf5(dir / name, dir / (name + ".h5"));
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "converted";
}

TEST(RunsHdf5, ProblemsNameTheFile) {
  const fs::path dir = fresh_dir("runs_h5_bad");
  const std::string empty = conversion_error(dir, "empty.csv", "");
  EXPECT_NE(empty.find("empty.csv: no header line"), std::string::npos) << empty;
  const std::string shorter = conversion_error(dir, "short.csv", "run,seed\n0\n");
  EXPECT_NE(shorter.find("short.csv: a row has 1 cells for 2 columns"), std::string::npos) << shorter;
}

}  // namespace
}  // namespace impactsim
