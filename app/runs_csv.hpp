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

// The run index a row starts with (a whole decimal number), or -1.
long run_of(const std::string& line);

// A runs.csv checked line by line: after its header, every complete line must be the row of run
// first, first + 1, ... with as many cells as the header. A partial last line is ignored.
struct RunsFileCheck {
  std::string header;      // the first line ("" if there is none)
  long rows = 0;           // the well-formed rows before any error
  std::uint64_t end = 0;   // the byte offset just past the last of them (or the header)
  std::string error;       // non-empty: the first line that is not the next run's row, and why
};
RunsFileCheck check_runs_file(const std::filesystem::path& path, long first);

}  // namespace impactsim
