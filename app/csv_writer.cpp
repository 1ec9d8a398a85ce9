#include "app/csv_writer.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace impactsim {

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns, int precision)
    : path_(path), out_(path), columns_(columns.size()) {
  if (!out_) throw std::runtime_error(path + ": cannot create file: " + std::strerror(errno));
  out_.precision(precision);
  for (size_t i = 0; i < columns.size(); ++i) out_ << (i ? "," : "") << columns[i];
  out_ << '\n';
  check_written();
}

void CsvWriter::row(const std::vector<double>& values) {
  if (values.size() != columns_)
    throw std::logic_error(path_ + ": row has " + std::to_string(values.size()) + " values for " +
                           std::to_string(columns_) + " columns");
  for (size_t i = 0; i < values.size(); ++i) out_ << (i ? "," : "") << values[i];
  out_ << '\n';
  check_written();
  ++rows_;
}

void CsvWriter::row(double t, const Eigen::VectorXd& a, const Eigen::VectorXd& b,
                    std::initializer_list<double> extra) {
  const size_t n = 1 + a.size() + b.size() + extra.size();
  if (n != columns_)
    throw std::logic_error(path_ + ": row has " + std::to_string(n) + " values for " + std::to_string(columns_) +
                           " columns");
  out_ << t;
  for (double x : a) out_ << ',' << x;
  for (double x : b) out_ << ',' << x;
  for (double x : extra) out_ << ',' << x;
  out_ << '\n';
  check_written();
  ++rows_;
}

void CsvWriter::text_row(const std::vector<std::string>& cells) {
  if (cells.size() != columns_)
    throw std::logic_error(path_ + ": row has " + std::to_string(cells.size()) + " cells for " +
                           std::to_string(columns_) + " columns");
  for (size_t i = 0; i < cells.size(); ++i) out_ << (i ? "," : "") << cells[i];
  out_ << '\n';
  check_written();
  ++rows_;
}

void CsvWriter::line(const std::string& text, size_t cells) {
  if (cells != columns_)
    throw std::logic_error(path_ + ": row has " + std::to_string(cells) + " cells for " + std::to_string(columns_) +
                           " columns");
  out_ << text << '\n';
  ++rows_;
}

void CsvWriter::check_written() {
  out_.flush();
  if (!out_) throw std::runtime_error(path_ + ": write failed (disk full or file removed?)");
}

}  // namespace impactsim
