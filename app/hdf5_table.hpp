#pragma once
// A table written to an HDF5 file (Debian's libhdf5), for large outputs read by h5py or pandas:
// one extendible 1-D dataset per column in the root group, named as the CSV's header names it,
// and a root attribute `columns` listing the names in order (h5py lists datasets alphabetically).
// Number columns are 64-bit floats holding the values exactly (the CSV prints `precision` digits);
// label columns are fixed-length strings (NUL-padded), as wide as the longest label allowed.
// Rows are buffered and appended by flush() (chunked datasets, at most kMaxChunkRows rows a chunk);
// what was flushed stays readable if the process dies later. Not thread-safe: one writer.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace impactsim {

class Hdf5Table {
 public:
  struct Column {
    std::string name;
    bool label = false;  // a text column; otherwise a number column
  };
  static constexpr std::size_t kMaxChunkRows = 65536;
  // Creates path (replacing a file there). A chunk holds `expected_rows` rows (at least one, at
  // most kMaxChunkRows): a chunk is allocated whole, so chunks far longer than the table would
  // make the file that much larger. Throws std::runtime_error naming the path on failure.
  Hdf5Table(const std::string& path, const std::vector<Column>& columns, std::size_t label_width,
            std::size_t expected_rows = kMaxChunkRows);
  ~Hdf5Table();  // flushes what is left (errors then are only logged) and closes the file
  Hdf5Table(const Hdf5Table&) = delete;
  Hdf5Table& operator=(const Hdf5Table&) = delete;

  // One row: `numbers` for the number columns and `labels` for the label columns, each in column
  // order. Throws std::invalid_argument if a count is wrong or a label is wider than label_width.
  void row(const std::vector<double>& numbers, const std::vector<std::string_view>& labels);
  // Appends the buffered rows to the file. Throws std::runtime_error naming the path on failure.
  void flush();
  long rows() const { return rows_; }
  const std::string& path() const { return path_; }

 private:
  struct Handles;
  std::string path_;
  std::vector<Column> columns_;
  std::size_t label_width_;
  std::unique_ptr<Handles> h_;
  std::vector<std::vector<double>> number_buffers_;  // per number column
  std::vector<std::string> label_buffers_;           // per label column: label_width_ bytes a row
  long rows_ = 0, written_ = 0;
  bool failed_ = false;  // a flush failed: the file is not to be trusted
};

}  // namespace impactsim
