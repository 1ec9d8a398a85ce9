// impactsim merge: join batch slices (directories holding a runs.csv each) into one batch.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "app/batch_summary.hpp"
#include "app/commands.hpp"

namespace impactsim {

namespace fs = std::filesystem;

// Slices hold their runs in order, so merging is a k-way merge of the files: memory holds one
// line per slice, not the runs.
int merge_command(const std::vector<std::string>& inputs, const std::string& output_dir) {
  struct Slice {
    fs::path path;
    std::ifstream in;
    std::string line;
    long run = -1;
    bool next() {  // the next complete row, false at the end (a partial last row is not merged)
      if (!std::getline(in, line) || in.eof()) return false;
      run = std::stol(line.substr(0, line.find(',')));
      return true;
    }
  };
  std::vector<Slice> slices(inputs.size());
  std::string header;
  for (size_t k = 0; k < inputs.size(); ++k) {
    Slice& s = slices[k];
    s.path = fs::path(inputs[k]) / "runs.csv";
    s.in.open(s.path, std::ios::binary);
    std::string first;
    if (!s.in || !std::getline(s.in, first)) {
      spdlog::error("{}: no runs.csv to merge", s.path.string());
      return kExitOutput;
    }
    if (header.empty()) header = first;
    if (first != header) {
      spdlog::error("{}: its columns differ from the first slice's", s.path.string());
      return kExitOutput;
    }
    if (!s.next()) s.run = -1;
  }
  std::error_code ec;
  fs::create_directories(output_dir, ec);
  std::ofstream out(fs::path(output_dir) / "runs.csv", std::ios::binary | std::ios::trunc);
  out << header << '\n';
  long merged = 0, last = -1;
  while (true) {
    Slice* best = nullptr;
    for (Slice& s : slices)
      if (s.run >= 0 && (!best || s.run < best->run)) best = &s;
    if (!best) break;
    if (best->run == last) {
      spdlog::error("{}: run {} is also in another slice", best->path.string(), best->run);
      return kExitOutput;
    }
    out << best->line << '\n';
    last = best->run;
    ++merged;
    const long before = best->run;
    if (!best->next()) best->run = -1;
    else if (best->run <= before) {
      spdlog::error("{}: runs are out of order after run {}", best->path.string(), before);
      return kExitOutput;
    }
  }
  out.close();
  if (!out) {
    spdlog::error("{}: write failed", output_dir);
    return kExitOutput;
  }
  try {
    write_summary(output_dir);
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return kExitOutput;
  }
  spdlog::info("merged {} runs into {}", merged, output_dir);
  return kExitOk;
}

}  // namespace impactsim
