// Hdf5Table: columns, values and labels read back exactly by the HDF5 C API, across flushes and
// chunks; bad rows and unwritable paths are clear errors.
#include "app/hdf5_table.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "tests/app/cli.hpp"
#include "tests/app/hdf5_read.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(Hdf5Table, RowsReadBackExactlyAcrossFlushesAndChunks) {
  const std::string path = (fresh_dir("hdf5_table") / "t.h5").string();
  const long rows = 150000;  // more than two chunks of 65,536
  {
    Hdf5Table table(path, {{"index"}, {"x.vn"}, {"x.class", true}}, 8);
    const char* names[] = {"rest", "stick", "collide"};
    for (long k = 0; k < rows; ++k) {
      table.row({static_cast<double>(k), std::sin(0.001 * k) / 3.0}, {names[k % 3]});
      if (k == 999 || k == 70000) table.flush();
    }
    EXPECT_EQ(table.rows(), rows);
  }  // the destructor writes the rest
  const Hdf5File file(path);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file.columns(), (std::vector<std::string>{"index", "x.vn", "x.class"}));
  const std::vector<double> index = file.numbers("index"), vn = file.numbers("x.vn");
  const std::vector<std::string> classes = file.labels("x.class");
  ASSERT_EQ(index.size(), static_cast<size_t>(rows));
  ASSERT_EQ(vn.size(), static_cast<size_t>(rows));
  ASSERT_EQ(classes.size(), static_cast<size_t>(rows));
  const char* names[] = {"rest", "stick", "collide"};
  for (long k = 0; k < rows; ++k) {
    ASSERT_EQ(index[k], static_cast<double>(k));
    const double expected = std::sin(0.001 * k) / 3.0;
    ASSERT_EQ(std::memcmp(&vn[k], &expected, sizeof(double)), 0) << "row " << k;  // every bit
    ASSERT_EQ(classes[k], names[k % 3]) << "row " << k;
  }
}

// A chunk is allocated whole: 400 rows in chunks of 65,536 made runs.h5 16 MB. Chunks sized to
// the expected rows keep it near the data's size, and rows past the expectation still go in.
TEST(Hdf5Table, ChunksFollowTheExpectedRows) {
  const fs::path dir = fresh_dir("hdf5_chunks");
  for (const long rows : {400L, 1000L}) {
    const std::string path = (dir / ("t" + std::to_string(rows) + ".h5")).string();
    {
      Hdf5Table table(path, {{"a"}, {"b"}, {"c", true}}, 8, 400);
      for (long k = 0; k < rows; ++k) table.row({1.0 * k, -1.0 * k}, {"x"});
    }
    EXPECT_LT(fs::file_size(path), 64u * 1024) << rows;  // 3 columns x 1000 rows x 8 bytes, and headers
    const Hdf5File file(path);
    ASSERT_TRUE(file.ok());
    const std::vector<double> b = file.numbers("b");
    ASSERT_EQ(b.size(), static_cast<size_t>(rows));
    EXPECT_EQ(b.back(), -(rows - 1.0));
  }
}

TEST(Hdf5Table, EmptyTableHasItsColumnsAndNoRows) {
  const std::string path = (fresh_dir("hdf5_empty") / "t.h5").string();
  { Hdf5Table table(path, {{"a"}, {"b", true}}, 4); }
  const Hdf5File file(path);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file.columns(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(file.length("a"), 0);
  EXPECT_EQ(file.length("b"), 0);
}

TEST(Hdf5Table, BadRowsAreRefused) {
  const std::string path = (fresh_dir("hdf5_bad_rows") / "t.h5").string();
  Hdf5Table table(path, {{"a"}, {"b", true}}, 4);
  EXPECT_THROW(table.row({1.0, 2.0}, {"ok"}), std::invalid_argument);  // two numbers for one column
  EXPECT_THROW(table.row({1.0}, {}), std::invalid_argument);
  EXPECT_THROW(table.row({1.0}, {"toolong"}), std::invalid_argument);
  table.row({1.0}, {"four"});
  EXPECT_EQ(table.rows(), 1);
}

TEST(Hdf5Table, UnwritablePathIsNamed) {
  const std::string path = (fresh_dir("hdf5_missing") / "no_such_dir" / "t.h5").string();
  try {
    Hdf5Table table(path, {{"a"}}, 4);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace impactsim
