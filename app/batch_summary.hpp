#pragma once
// summary.json of a batch, computed from runs.csv and the batch's provenance alone (streamed:
// memory does not grow with the runs), so a merged batch and a single one agree byte for byte. It
// holds the provenance (what produced the runs: impactsim build, scene, settings), the run count,
// failures, mean impacts, final kinetic energy (mean, min, max), the fraction of runs ending with
// each contact closed, the failures by reason, and for every numeric column its count, mean,
// standard deviation, range and, while it takes at most 32 distinct integer values, how often each
// occurs.
#include <filesystem>
#include <map>
#include <string>

namespace impactsim {

// Running statistics of one column (Welford's update), and how often each value occurs while it
// takes few distinct integer values (0/1 flags, impact counts).
struct ColumnStats {
  static constexpr size_t kMaxDistinct = 32;
  long n = 0;
  double mean = 0, m2 = 0, min = 0, max = 0;
  std::map<long, long> counts;
  bool countable = true;

  void add(double x);
  double sd() const;  // sample standard deviation; 0 below two values
};

// How many runs a batch holds and how many failed, by reason (runs.csv's `reason` column).
struct FailureCounts {
  long runs = 0, failed = 0;
  long dependent_close_runs = 0;  // runs whose dependent_closes column is above 0 (RunTally)
  long time_step_runs = 0;        // runs that stepped through an instant (time_steps above 0)
  std::map<std::string, long> by_reason;
  std::string text() const;  // "2 of 40 runs failed (step_limit 1, stalled 1)", or "40 runs, none failed"
};

// Writes dir/summary.json from dir/runs.csv and returns its counts; `provenance` (JSON text from
// provenance_json, or empty for none) goes in first, as `provenance`, then `interrupted` (empty:
// none), how a signal ended the batch and how to resume it ({"signal": ..., "resume": ...}). A run
// whose row runs.csv holds twice counts once. Throws std::runtime_error if it cannot be written.
FailureCounts write_summary(const std::filesystem::path& dir, const std::string& provenance = "",
                            const std::string& interrupted = "");

}  // namespace impactsim
