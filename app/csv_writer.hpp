#pragma once
// Writes a CSV table row by row. Rows are buffered: flush() writes them out (RunFiles flushes at
// events and when a run stops, so a run that fails keeps every row it reached; the destructor
// writes the rest), and a failed write is reported by the row or flush that sees it.
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "app/number_text.hpp"

namespace impactsim {

// Writes `text` to `path`, replacing it. Throws std::runtime_error naming the path on failure.
void write_text_file(const std::filesystem::path& path, const std::string& text);

// Rows are appended to a buffer and written out with POSIX writes. A row reaches the file whole or
// not at all: where a write fails (a full disk), the file is cut back to its last whole row, the
// writer refuses further rows, and the failure is thrown naming the path.
class CsvWriter {
 public:
  // Throws std::runtime_error naming the path if the file cannot be created.
  CsvWriter(const std::string& path, const std::vector<std::string>& columns, int precision);
  // Appends rows of `columns` cells to the table at path, whose header and rows are kept (a resumed
  // batch). Throws std::runtime_error naming the path if it cannot be opened.
  struct Append {};
  CsvWriter(const std::string& path, std::size_t columns, int precision, Append);
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  ~CsvWriter();  // writes what is buffered; a failure there is logged
  // Starts a row from t and the two vectors, then appends `extra`.
  void row(double t, const Eigen::VectorXd& a, const Eigen::VectorXd& b, std::initializer_list<double> extra);
  // A row of already formatted cells (text columns); the count must match the header.
  void text_row(const std::vector<std::string>& cells);
  // A whole line of `cells` comma-separated cells, no newline.
  void line(const std::string& text, size_t cells);
  void flush();
  long rows() const { return rows_; }
  const std::string& path() const { return path_; }

 private:
  void check_width(size_t cells) const;
  void end_row();     // the buffer holds one more whole row; written out once it is large
  void write_out();   // the buffer to the file; on failure, the file cut back to its last whole row
  void fail(int error);

  std::string path_;
  int fd_ = -1;
  bool failed_ = false;
  // Written in few system calls: a file of many rows goes out a quarter MiB at a time.
  static constexpr std::size_t kBufferBytes = 1 << 18;
  std::string buffer_;
  std::vector<std::size_t> row_ends_;  // where each whole row in buffer_ ends
  std::uintmax_t written_ = 0;         // bytes in the file, every one of them a whole row's
  size_t columns_;
  int precision_;
  long rows_ = 0;
};

}  // namespace impactsim
