#pragma once
// Writes a CSV table row by row. Rows are buffered: flush() writes them out (RunFiles flushes at
// events and when a run stops, so a run that fails keeps every row it reached; the destructor
// writes the rest), and a failed write is reported by the row or flush that sees it.
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "app/number_text.hpp"

namespace impactsim {

// Writes `text` to `path`, replacing it. Throws std::runtime_error naming the path on failure.
void write_text_file(const std::filesystem::path& path, const std::string& text);

class CsvWriter {
 public:
  // Throws std::runtime_error naming the path if the file cannot be created.
  CsvWriter(const std::string& path, const std::vector<std::string>& columns, int precision);
  // Starts a row from t and the two vectors, then appends `extra`.
  void row(double t, const Eigen::VectorXd& a, const Eigen::VectorXd& b, std::initializer_list<double> extra);
  // A row of already formatted cells (text columns); the count must match the header.
  void text_row(const std::vector<std::string>& cells);
  // A whole line of `cells` comma-separated cells, no newline.
  void line(const std::string& text, size_t cells);
  void flush() { check_written(); }
  long rows() const { return rows_; }
  const std::string& path() const { return path_; }

 private:
  void check_width(size_t cells) const;
  void check_state() const;  // throws if the stream has failed, without flushing
  void check_written();      // flushes, then as check_state

  std::string path_;
  // The stream's buffer, larger than the library's few KiB so that a file of many rows is written
  // in few system calls; declared before out_, which uses it until it is destroyed.
  static constexpr std::size_t kBufferBytes = 1 << 18;
  std::unique_ptr<char[]> buffer_;
  std::ofstream out_;
  size_t columns_;
  int precision_;
  long rows_ = 0;
  std::string line_;  // row() writes each line into this storage, reused from row to row
};

}  // namespace impactsim
