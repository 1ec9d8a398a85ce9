#include "app/runs_hdf5.hpp"

#include <charconv>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/hdf5_table.hpp"
#include "app/runs_csv.hpp"

namespace impactsim {
namespace {

// The whole cell as a double; false if it is not one.
bool parse_number(const std::string& cell, double& x) {
  const char* end = cell.data() + cell.size();
  const auto [ptr, ec] = std::from_chars(cell.data(), end, x);
  return ec == std::errc() && ptr == end;
}

}  // namespace

long write_runs_hdf5(const std::filesystem::path& csv, const std::filesystem::path& h5) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header;
  for_each_line(csv, [&](const std::string& line, std::uint64_t) {
    if (header.empty()) {
      header = split_cells(line);
      return;
    }
    rows.push_back(split_cells(line));
    if (rows.back().size() != header.size())
      throw std::runtime_error(csv.string() + ": a row has " + std::to_string(rows.back().size()) + " cells for " +
                               std::to_string(header.size()) + " columns");
  });
  if (header.empty()) throw std::runtime_error(csv.string() + ": no header line to convert");
  const size_t n = header.size();
  std::vector<bool> label(n, false);
  size_t width = 1;
  for (size_t c = 0; c < n; ++c) {
    label[c] = header[c] == "seed" || header[c] == "status" || header[c] == "reason" || header[c] == "message";
    for (const std::vector<std::string>& row : rows) {
      double x = 0;
      if (!row[c].empty() && !parse_number(row[c], x)) label[c] = true;
    }
    if (label[c])
      for (const std::vector<std::string>& row : rows) width = std::max(width, row[c].size());
  }
  std::vector<Hdf5Table::Column> columns;
  for (size_t c = 0; c < n; ++c) columns.push_back({header[c], label[c]});
  Hdf5Table table(h5.string(), columns, width, rows.size());
  std::vector<double> numbers;
  std::vector<std::string_view> labels;
  for (const std::vector<std::string>& row : rows) {
    numbers.clear();
    labels.clear();
    for (size_t c = 0; c < n; ++c) {
      if (label[c]) {
        labels.push_back(row[c]);
        continue;
      }
      double x = std::numeric_limits<double>::quiet_NaN();
      if (!row[c].empty()) parse_number(row[c], x);
      numbers.push_back(x);
    }
    table.row(numbers, labels);
  }
  table.flush();
  return table.rows();
}

}  // namespace impactsim
