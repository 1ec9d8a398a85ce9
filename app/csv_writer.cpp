#include "app/csv_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include <spdlog/spdlog.h>

namespace impactsim {

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(path.string() + ": cannot create file: " + std::strerror(errno));
  out << text;
  if (!out.flush()) throw std::runtime_error(path.string() + ": write failed");
}

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns, int precision)
    : path_(path), columns_(columns.size()), precision_(precision) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(path + ": cannot create file: " + std::strerror(errno));
  buffer_.reserve(kBufferBytes + 4096);
  for (size_t i = 0; i < columns.size(); ++i) buffer_.append(i ? "," : "").append(columns[i]);
  buffer_ += '\n';
  row_ends_.push_back(buffer_.size());
  flush();
}

CsvWriter::CsvWriter(const std::string& path, std::size_t columns, int precision, Append)
    : path_(path), columns_(columns), precision_(precision) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  const off_t end = fd_ < 0 ? -1 : ::lseek(fd_, 0, SEEK_END);
  if (end < 0) {
    const int error = errno;
    if (fd_ >= 0) ::close(fd_);
    throw std::runtime_error(path + ": cannot append to it: " + std::strerror(error));
  }
  written_ = static_cast<std::uintmax_t>(end);  // what a failed write cuts back to starts here
  buffer_.reserve(kBufferBytes + 4096);
}

CsvWriter::~CsvWriter() {
  try {
    if (!failed_) flush();  // a failure was thrown where it happened
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
  }
  if (fd_ >= 0) ::close(fd_);
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
  // NumberText: the %.<precision>g text without a stream's locale machinery, written straight into
  // the buffer's storage.
  const size_t start = buffer_.size();
  buffer_.resize(start + cells * (NumberText::kMaxSize + 1));
  char* const begin = buffer_.data() + start;
  char* o = begin + NumberText::write(t, precision_, begin);
  auto put = [&o, this](double x) {
    *o++ = ',';
    o += NumberText::write(x, precision_, o);
  };
  for (double x : a) put(x);
  for (double x : b) put(x);
  for (double x : extra) put(x);
  *o++ = '\n';
  buffer_.resize(start + static_cast<size_t>(o - begin));
  end_row();
}

void CsvWriter::text_row(const std::vector<std::string>& cells) {
  check_width(cells.size());
  for (size_t i = 0; i < cells.size(); ++i) buffer_.append(i ? "," : "").append(cells[i]);
  buffer_ += '\n';
  end_row();
}

void CsvWriter::line(const std::string& text, size_t cells) {
  check_width(cells);
  buffer_.append(text) += '\n';
  end_row();
}

void CsvWriter::end_row() {
  if (failed_) throw std::runtime_error(path_ + ": write failed earlier; no more rows are written");
  row_ends_.push_back(buffer_.size());
  ++rows_;
  if (buffer_.size() >= kBufferBytes) write_out();
}

void CsvWriter::flush() {
  if (failed_) throw std::runtime_error(path_ + ": write failed earlier; no more rows are written");
  write_out();
}

void CsvWriter::write_out() {
  size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      // Keep the whole rows that reached the file and cut off the part of the one that did not.
      size_t whole = 0;
      for (size_t end : row_ends_)
        if (end <= done) whole = end;
      if (done > whole && ::ftruncate(fd_, static_cast<off_t>(written_ + whole)) != 0)
        spdlog::warn("{}: could not cut off a partly written row", path_);
      fail(error);
    }
    done += static_cast<size_t>(n);
  }
  written_ += buffer_.size();
  buffer_.clear();
  row_ends_.clear();
}

void CsvWriter::fail(int error) {
  failed_ = true;
  buffer_.clear();
  row_ends_.clear();
  throw std::runtime_error(path_ + ": write failed (" + std::strerror(error) + "; disk full or file removed?)");
}

}  // namespace impactsim
