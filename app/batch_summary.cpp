#include "app/batch_summary.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/csv_writer.hpp"
#include "app/runs_csv.hpp"

namespace impactsim {

void ColumnStats::add(double x) {
  ++n;
  const double d = x - mean;
  mean += d / n;
  m2 += d * (x - mean);
  min = n == 1 ? x : std::min(min, x);
  max = n == 1 ? x : std::max(max, x);
  if (!countable) return;
  if (x != std::floor(x) || std::abs(x) > 1e15 || (counts.size() == kMaxDistinct && !counts.count(static_cast<long>(x)))) {
    countable = false;
    counts.clear();
    return;
  }
  ++counts[static_cast<long>(x)];
}

double ColumnStats::sd() const { return n > 1 ? std::sqrt(m2 / (n - 1)) : 0.0; }

std::string FailureCounts::text() const {
  if (failed == 0) return std::to_string(runs) + " runs, none failed";
  std::string out = std::to_string(failed) + " of " + std::to_string(runs) + " runs failed (";
  bool first = true;
  for (const auto& [reason, n] : by_reason) {
    out += (first ? "" : ", ") + reason + " " + std::to_string(n);
    first = false;
  }
  return out + ")";
}

FailureCounts write_summary(const std::filesystem::path& dir, const std::string& provenance,
                            const std::string& interrupted) {
  std::vector<std::string> header;
  FailureCounts counts;
  long& runs = counts.runs;
  long& failed = counts.failed;
  std::vector<ColumnStats> stats;
  size_t reason_column = std::string::npos, dependent_column = std::string::npos, steps_column = std::string::npos;
  std::set<std::string> seen;  // run numbers: a run's row counts once, however often it was written
  for_each_line(dir / "runs.csv", [&](const std::string& line, std::uint64_t) {
    std::vector<std::string> cells = split_cells(line);
    if (header.empty()) {
      header = cells;
      stats.resize(header.size());
      for (size_t c = 0; c < header.size(); ++c)
        if (header[c] == "reason") reason_column = c;
        else if (header[c] == "dependent_closes") dependent_column = c;
        else if (header[c] == "time_steps") steps_column = c;
      return;
    }
    if (cells.size() != header.size() || !seen.insert(cells[0]).second) return;
    ++runs;
    const auto positive = [&](size_t c) { return c < cells.size() && !cells[c].empty() && cells[c] != "0"; };
    if (positive(dependent_column)) ++counts.dependent_close_runs;
    if (positive(steps_column)) ++counts.time_step_runs;
    for (size_t c = 0; c < header.size(); ++c) {
      if (header[c] == "run" || header[c] == "seed" || header[c] == "reason" || header[c] == "message" ||
          cells[c].empty())
        continue;
      if (header[c] == "status") {
        if (cells[c] == "ok") continue;
        ++failed;
        ++counts.by_reason[reason_column < cells.size() ? cells[reason_column] : std::string("unknown")];
        continue;
      }
      char* end = nullptr;
      const double x = std::strtod(cells[c].c_str(), &end);
      if (end != cells[c].c_str() && *end == 0 && std::isfinite(x)) stats[c].add(x);
    }
  });
  auto column = [&](const std::string& name) -> ColumnStats {
    for (size_t c = 0; c < header.size(); ++c)
      if (header[c] == name) return stats[c];
    return {};
  };
  using Json = nlohmann::ordered_json;
  Json summary;
  if (!provenance.empty()) summary["provenance"] = Json::parse(provenance);
  if (!interrupted.empty()) summary["interrupted"] = Json::parse(interrupted);
  summary["runs"] = runs;
  summary["failed"] = failed;
  Json reasons = Json::object();
  for (const auto& [reason, n] : counts.by_reason) reasons[reason] = n;
  summary["failures"] = reasons;
  summary["time_step_runs"] = counts.time_step_runs;
  summary["mean_impacts"] = column("impacts").mean;
  const ColumnStats ke = column("final.kinetic_energy");
  summary["final_kinetic_energy"] = {{"mean", ke.mean}, {"min", ke.min}, {"max", ke.max}};
  Json closed = Json::object();
  for (size_t c = 0; c < header.size(); ++c)
    if (header[c].size() > 7 && header[c].ends_with(".closed"))
      closed[header[c].substr(0, header[c].size() - 7)] = runs ? stats[c].mean : 0.0;
  summary["closed_fraction"] = closed;
  Json columns = Json::object();
  for (size_t c = 0; c < header.size(); ++c) {
    const ColumnStats& st = stats[c];
    if (st.n == 0) continue;
    Json entry = {{"n", st.n}, {"mean", st.mean}, {"sd", st.sd()}, {"min", st.min}, {"max", st.max}};
    if (st.countable) {
      Json counts = Json::object();
      for (const auto& [value, n] : st.counts) counts[std::to_string(value)] = n;
      entry["counts"] = counts;
    }
    columns[header[c]] = entry;
  }
  summary["columns"] = columns;
  write_text_file(dir / "summary.json", summary.dump(2) + "\n");
  return counts;
}

}  // namespace impactsim
