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
