#pragma once
// Reading a batch's runs.csv: its lines and cells. Rows are written a whole chunk at a time, so a
// batch killed mid-write may leave a partial last line, which the readers here never return.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace impactsim {

// The comma-separated cells of one line (no quoting: no cell of runs.csv holds a comma).
std::vector<std::string> split_cells(const std::string& line);

// Every complete line of the file in order (header included), with the byte offset just past it.
void for_each_line(const std::filesystem::path& path,
                   const std::function<void(const std::string& line, std::uint64_t end_offset)>& on_line);

}  // namespace impactsim
