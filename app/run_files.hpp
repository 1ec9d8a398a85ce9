#pragma once
// The files of one simulated run: DIR/trajectory.csv (rows at the output times and just before and
// after each event) and DIR/events.csv (one row per event). Shared by `run` and by `batch
// --trajectories`, so both write the same format. Every row is flushed as it is written.
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
  const CsvWriter& trajectory() const { return trajectory_; }
  const CsvWriter& events() const { return events_; }

 private:
  const Scene& scene_;
  CsvWriter trajectory_, events_;
};

}  // namespace impactsim
