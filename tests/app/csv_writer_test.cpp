#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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

}  // namespace
}  // namespace impactsim
