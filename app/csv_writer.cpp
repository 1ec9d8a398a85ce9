#include "app/csv_writer.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace impactsim {

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(path.string() + ": cannot create file: " + std::strerror(errno));
  out << text;
  if (!out.flush()) throw std::runtime_error(path.string() + ": write failed");
}

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
  const size_t cells = 1 + a.size() + b.size() + extra.size();
  check_width(cells);
  // NumberText, not operator<<: the same %.<precision>g text without the stream's locale machinery;
  // the row is put together in line_'s storage first and handed to the stream in one write.
  if (line_.size() < cells * (NumberText::kMaxSize + 1)) line_.resize(cells * (NumberText::kMaxSize + 1));
  char* const start = line_.data();
  char* o = start + NumberText::write(t, precision_, start);
  auto put = [&o, this](double x) {
    *o++ = ',';
    o += NumberText::write(x, precision_, o);
  };
  for (double x : a) put(x);
  for (double x : b) put(x);
  for (double x : extra) put(x);
  *o++ = '\n';
  out_.write(start, static_cast<std::streamsize>(o - start));
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
