#include <gtest/gtest.h>

#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/csv_writer.hpp"

namespace impactsim {
namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(CsvWriter, WritesHeaderAndRowsAndFlushWritesThemOut) {
  const std::string path = ::testing::TempDir() + "/csv_writer_test.csv";
  CsvWriter w(path, {"t", "a.x", "a.vx", "e"}, 6);
  EXPECT_EQ(read_all(path), "t,a.x,a.vx,e\n");  // the header at once
  w.row(0.5, Eigen::VectorXd::Constant(1, 1.25), Eigen::VectorXd::Constant(1, -2.0), {1.0 / 3});
  // Read back while the writer is still open: after flush() the row is on disk, printed as %.6g.
  w.flush();
  EXPECT_EQ(read_all(path), "t,a.x,a.vx,e\n0.5,1.25,-2,0.333333\n");
  w.text_row({"1", "2", "3", "4"});
  EXPECT_EQ(w.rows(), 2);
}

TEST(CsvWriter, RowOfTheWrongWidthIsRefused) {
  const std::string path = ::testing::TempDir() + "/csv_writer_width.csv";
  CsvWriter w(path, {"t", "x"}, 6);
  EXPECT_THROW(w.text_row({"1", "2", "3"}), std::logic_error);
  EXPECT_THROW(w.line("1,2,3", 3), std::logic_error);
  EXPECT_THROW(w.row(1.0, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1), {}), std::logic_error);
}

TEST(CsvWriter, UnwritablePathIsAClearError) {
  try {
    CsvWriter w("/nonexistent-dir/x.csv", {"t"}, 6);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/x.csv"), std::string::npos);
  }
}

TEST(WriteTextFile, ReplacesTheFileOrNamesItInTheError) {
  const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / "impactsim_write_text_file.json";
  write_text_file(path, "{\"a\": 1}\n");
  write_text_file(path, "{}\n");  // shorter: the old text is gone, not overwritten in part
  std::ifstream in(path, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "{}\n");
  try {
    write_text_file("/nonexistent-dir/summary.json", "{}");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/summary.json: cannot create file"), std::string::npos)
        << e.what();
  }
}

// A resumed batch appends to its runs.csv: the header and rows there are kept, new rows follow,
// and the width is the one given. A file that is not there is an error naming it.
TEST(CsvWriter, AppendKeepsWhatTheFileHolds) {
  const std::string path = ::testing::TempDir() + "/csv_writer_append.csv";
  {
    CsvWriter w(path, {"run", "x"}, 6);
    w.text_row({"0", "1.5"});
  }
  {
    CsvWriter w(path, 2, 6, CsvWriter::Append{});
    w.line("1,2.5", 2);
    EXPECT_THROW(w.line("2,3,4", 3), std::logic_error);
    w.flush();
    EXPECT_EQ(read_all(path), "run,x\n0,1.5\n1,2.5\n");
    w.text_row({"2", "3.5"});
  }
  EXPECT_EQ(read_all(path), "run,x\n0,1.5\n1,2.5\n2,3.5\n");
  const std::string missing = ::testing::TempDir() + "/csv_writer_no_such_dir/runs.csv";
  try {
    CsvWriter w(missing, 2, 6, CsvWriter::Append{});
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(missing + ": cannot append to it"), std::string::npos) << e.what();
  }
}

// Issue 62, item 10: a full disk left a trajectory.csv whose last row was cut off. A file-size
// limit (RLIMIT_FSIZE, with SIGXFSZ ignored) fails a write part way through a row as a full disk
// does; the file must end with its last whole row, and the writer refuse more.
TEST(CsvWriter, AFullDiskLeavesOnlyWholeRows) {
  const std::string path = ::testing::TempDir() + "/csv_writer_full.csv";
  rlimit before{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &before), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit limited = before;
  limited.rlim_cur = 10000;  // bytes: not a whole number of rows
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);
  std::string error;
  long rows_accepted = 0;
  {
    CsvWriter w(path, {"t", "a.x", "a.vx", "e"}, 12);
    try {
      for (int k = 0; k < 2000; ++k, ++rows_accepted) {
        w.row(k / 3.0, Eigen::VectorXd::Constant(1, k / 7.0), Eigen::VectorXd::Constant(1, -k / 11.0), {k / 13.0});
        if (k % 50 == 49) w.flush();
      }
    } catch (const std::runtime_error& e) {
      error = e.what();
    }
    EXPECT_THROW(w.text_row({"1", "2", "3", "4"}), std::runtime_error);  // no row after a failure
  }
  setrlimit(RLIMIT_FSIZE, &before);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_NE(error.find(path + ": write failed (File too large"), std::string::npos) << error;
  const std::string text = read_all(path);
  EXPECT_LE(text.size(), 10000u);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  std::istringstream lines(text);
  long count = 0;
  for (std::string line; std::getline(lines, line); ++count)
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), 3) << line;
  EXPECT_GT(count, 100);  // the rows flushed before the limit are kept
  EXPECT_LE(count - 1, rows_accepted);
}

}  // namespace
}  // namespace impactsim
