#pragma once
// The files of one simulated run: DIR/trajectory.csv (rows at the output times and just before and
// after each event) and DIR/events.csv (one row per event). Shared by `run` and by `batch
// --trajectories`, so both write the same format. Rows are flushed at events at most every 0.2 s
// of wall time and when the run stops (flush()), not row by row: a run that fails keeps every row
// up to where it stopped.
#include <chrono>
#include <string>

#include "app/csv_writer.hpp"
#include "core/events.hpp"
#include "scenes/scene.hpp"

namespace impactsim {

class RunFiles {
 public:
  // Throws std::runtime_error naming the path if a file cannot be created.
  RunFiles(const std::string& dir, const Scene& scene);
  // Callbacks that write every sample, event sample and event; `extra` (may be empty) sees events too.
  RunCallbacks callbacks(std::function<void(const Event&)> extra = {});
  // Writes out every row so far (before reading or plotting the files while they are open).
  void flush() {
    trajectory_.flush();
    events_.flush();
  }
  const CsvWriter& trajectory() const { return trajectory_; }
  const CsvWriter& events() const { return events_; }

 private:
  const Scene& scene_;
  CsvWriter trajectory_, events_;
  std::chrono::steady_clock::time_point last_flush_ = std::chrono::steady_clock::now();
};

}  // namespace impactsim
