#include "app/csv_writer.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

namespace impactsim {

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(path.string() + ": cannot create file: " + std::strerror(errno));
  out << text;
  if (!out.flush()) throw std::runtime_error(path.string() + ": write failed");
}

NumberText::NumberText(double x, int precision)
    : size_(static_cast<size_t>(
          std::to_chars(text_, text_ + sizeof text_, x, std::chars_format::general, precision).ptr - text_)) {}

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns, int precision)
    : path_(path), buffer_(new char[kBufferBytes]), columns_(columns.size()), precision_(precision) {
  out_.rdbuf()->pubsetbuf(buffer_.get(), kBufferBytes);  // before open, as libstdc++ requires
  out_.open(path);
  if (!out_) throw std::runtime_error(path + ": cannot create file: " + std::strerror(errno));
  out_.precision(precision);
  for (size_t i = 0; i < columns.size(); ++i) out_ << (i ? "," : "") << columns[i];
  out_ << '\n';
  check_written();
}

void CsvWriter::check_width(size_t cells) const {
  if (cells != columns_)
    throw std::logic_error(path_ + ": row has " + std::to_string(cells) + " cells for " + std::to_string(columns_) +
                           " columns");
}

void CsvWriter::row(double t, const Eigen::VectorXd& a, const Eigen::VectorXd& b,
                    std::initializer_list<double> extra) {
  check_width(1 + a.size() + b.size() + extra.size());
  // to_chars, not operator<<: the same %.<precision>g text without the stream's locale machinery;
  // the row is put together first and handed to the stream in one write.
  line_.clear();
  auto put = [this](double x) { line_ += NumberText(x, precision_).view(); };
  put(t);
  for (double x : a) line_ += ',', put(x);
  for (double x : b) line_ += ',', put(x);
  for (double x : extra) line_ += ',', put(x);
  line_ += '\n';
  out_.write(line_.data(), static_cast<std::streamsize>(line_.size()));
  check_state();
  ++rows_;
}

void CsvWriter::text_row(const std::vector<std::string>& cells) {
  check_width(cells.size());
  for (size_t i = 0; i < cells.size(); ++i) out_ << (i ? "," : "") << cells[i];
  out_ << '\n';
  check_state();
  ++rows_;
}

void CsvWriter::line(const std::string& text, size_t cells) {
  check_width(cells);
  out_ << text << '\n';
  ++rows_;
}

void CsvWriter::check_state() const {
  if (!out_) throw std::runtime_error(path_ + ": write failed (disk full or file removed?)");
}

void CsvWriter::check_written() {
  out_.flush();
  check_state();
}

}  // namespace impactsim
