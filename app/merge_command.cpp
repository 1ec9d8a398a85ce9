// impactsim merge: join batch slices (directories holding runs.csv and batch.json) into one batch.
// The slices must be of one batch (same scene text, law, seed, N and columns) and cover runs
// 0..N-1 exactly once, each complete; anything else is refused before a byte is written.
#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "app/batch_identity.hpp"
#include "app/batch_summary.hpp"
#include "app/commands.hpp"
#include "app/csv_writer.hpp"
#include "app/metadata.hpp"
#include "app/output_lock.hpp"
#include "app/runs_csv.hpp"

namespace impactsim {
namespace {

namespace fs = std::filesystem;

struct Slice {
  fs::path dir;
  BatchIdentity identity;
};

bool same_place(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

// The slices, checked: one batch, complete, tiling 0..N-1. Empty after logging why not.
std::vector<Slice> checked_slices(const std::vector<std::string>& inputs, const fs::path& output) {
  std::vector<Slice> slices;
  for (const std::string& input : inputs) {
    if (same_place(input, output)) {
      spdlog::error("{}: the output directory is one of the slices; merge into another directory", output.string());
      return {};
    }
    std::string error;
    const std::optional<BatchIdentity> identity = read_batch_identity(input, error);
    if (!identity) {
      spdlog::error("{}", error);
      return {};
    }
    if (!slices.empty()) {
      if (const std::string d = batch_difference(*identity, slices.front().identity); !d.empty()) {
        spdlog::error("{}: not a slice of the batch in {}: {}", input, slices.front().dir.string(), d);
        return {};
      }
    }
    const RunsFileCheck check = check_runs_file(fs::path(input) / "runs.csv", identity->first);
    if (!check.error.empty()) {
      spdlog::error("{}", check.error);
      return {};
    }
    if (check.header != identity->columns || check.rows != identity->count) {
      spdlog::error("{}: holds {} of its {} runs ({}..{}); complete it with batch --resume first", input, check.rows,
                    identity->count, identity->first, identity->first + identity->count - 1);
      return {};
    }
    slices.push_back({input, *identity});
  }
  std::sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) { return a.identity.first < b.identity.first; });
  long next = 0;
  for (const Slice& s : slices) {
    if (s.identity.count == 0) continue;
    if (s.identity.first > next) {
      spdlog::error("no slice holds runs {}..{} of the {}", next, s.identity.first - 1, s.identity.runs);
      return {};
    }
    if (s.identity.first < next) {
      spdlog::error("{}: runs {}..{} are also in another slice", s.dir.string(), s.identity.first,
                    std::min(next, s.identity.first + s.identity.count) - 1);
      return {};
    }
    next = s.identity.first + s.identity.count;
  }
  if (next != slices.front().identity.runs) {
    spdlog::error("no slice holds runs {}..{} of the {}", next, slices.front().identity.runs - 1,
                  slices.front().identity.runs);
    return {};
  }
  return slices;
}

// The provenance of the batch, from the first slice's metadata.json (its impactsim, command, scene
// and settings, as provenance_json writes them), or "" when a slice has none. Slices of one batch
// (checked already) that differ there, e.g. built by another commit, are named in a warning.
std::string slices_provenance(const std::vector<Slice>& slices) {
  std::string first;
  for (const Slice& s : slices) {
    std::ifstream in(s.dir / "metadata.json");
    const nlohmann::ordered_json meta = nlohmann::ordered_json::parse(in, nullptr, false);
    if (!in || meta.is_discarded() || !meta.is_object()) {
      spdlog::warn("{}: no readable metadata.json; summary.json says nothing of where the runs came from", s.dir.string());
      return "";
    }
    nlohmann::ordered_json provenance;
    for (const char* key : {"impactsim", "command", "scene", "settings"})
      if (meta.contains(key)) provenance[key] = meta[key];
    const std::string text = provenance.dump(2);
    if (first.empty()) first = text;
    else if (text != first)
      spdlog::warn("{}: its metadata.json differs from {}'s (impactsim build or scene path); summary.json keeps the first's",
                   s.dir.string(), slices.front().dir.string());
  }
  return first;
}

}  // namespace

int merge_command(const std::vector<std::string>& inputs, const std::string& output_dir, const std::string& command_line) {
  const auto started = std::chrono::system_clock::now();
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Slice> slices = checked_slices(inputs, output_dir);
  if (slices.empty()) return kExitOutput;
  std::error_code ec;
  fs::create_directories(output_dir, ec);
  if (ec) {
    spdlog::error("{}: cannot create the output directory: {}", output_dir, ec.message());
    return kExitOutput;
  }
  const std::optional<OutputLock> lock = lock_output_or_report(output_dir);
  if (!lock) return kExitOutput;
  const fs::path path = fs::path(output_dir) / "runs.csv";
  BatchIdentity whole = slices.front().identity;
  whole.first = 0;
  whole.count = whole.runs;
  try {
    write_batch_identity(output_dir, whole);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << whole.columns << '\n';
    // The slices tile 0..N-1 in order, each complete: their rows, concatenated, are the batch's.
    for (const Slice& s : slices) {
      bool header = true;
      for_each_line(s.dir / "runs.csv", [&](const std::string& line, std::uint64_t) {
        if (!header) out << line << '\n';
        header = false;
      });
    }
    if (!out.flush()) throw std::runtime_error(path.string() + ": write failed: " + std::strerror(errno));
    out.close();
    const std::string provenance = slices_provenance(slices);
    const FailureCounts counts = write_summary(output_dir, provenance);
    std::vector<std::string> slice_dirs;
    for (const Slice& s : slices) slice_dirs.push_back(s.dir.string());
    write_text_file(fs::path(output_dir) / "metadata.json",
                    merge_metadata_json(command_line, slice_dirs, provenance, started,
                                        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
    spdlog::info("merged {} slices into {}: {}", slices.size(), output_dir, counts.text());
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return kExitOutput;
  }
  return kExitOk;
}

}  // namespace impactsim
