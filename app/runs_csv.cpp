#include "app/runs_csv.hpp"

#include <fstream>

namespace impactsim {

std::vector<std::string> split_cells(const std::string& line) {
  std::vector<std::string> cells;
  size_t start = 0;
  for (size_t end; (end = line.find(',', start)) != std::string::npos; start = end + 1)
    cells.push_back(line.substr(start, end - start));
  cells.push_back(line.substr(start));
  return cells;
}

long run_of(const std::string& line) {
  const size_t comma = line.find(',');
  const std::string cell = line.substr(0, comma);
  if (cell.empty() || cell.size() > 18 || cell.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stol(cell);
}

RunsFileCheck check_runs_file(const std::filesystem::path& path, long first) {
  RunsFileCheck check;
  size_t cells = 0;
  long number = 0;
  for_each_line(path, [&](const std::string& line, std::uint64_t end) {
    ++number;
    if (!check.error.empty()) return;
    if (number == 1) {
      check.header = line;
      cells = split_cells(line).size();
      check.end = end;
      return;
    }
    const long expected = first + check.rows;
    if (run_of(line) != expected || split_cells(line).size() != cells) {
      check.error = path.string() + ": line " + std::to_string(number) + " is not the row of run " +
                    std::to_string(expected) + " with " + std::to_string(cells) + " cells: '" + line.substr(0, 80) + "'";
      return;
    }
    ++check.rows;
    check.end = end;
  });
  return check;
}

void for_each_line(const std::filesystem::path& path,
                   const std::function<void(const std::string& line, std::uint64_t end_offset)>& on_line) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  std::uint64_t offset = 0;
  while (std::getline(in, line)) {
    if (in.eof()) break;  // no newline after it: partial
    offset += line.size() + 1;
    on_line(line, offset);
  }
}
}  // namespace impactsim
