#pragma once
// One run of a batch as its runs.csv row: the columns, and the run that fills them. Run i draws
// from a generator seeded by (seed, i) alone (app/sample_seed.hpp), so its row is the same in any
// batch, on any thread, in any slice.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/system.hpp"
#include "impact/impact_law.hpp"
#include "scenes/scene.hpp"

namespace impactsim {

// runs.csv's header for the scene (docs/guide.md, `batch`).
std::vector<std::string> run_columns(const Scene& scene);

// Cells joined by commas, no newline.
std::string join_cells(const std::vector<std::string>& cells);

// The system of a run that writes only its final state: one output row at t_end. Output times do
// not steer the integrator, so the run itself is the same as with the scene's rows.
System final_row_only(System s);

// One run's results as numbers: what its runs.csv row shows, before formatting (the Python
// package returns these). A run whose draw is invalid has status "failed", reason "invalid_draw",
// its draws, and nothing else (the row's remaining cells are empty).
struct RunRecord {
  long run = 0;
  std::uint64_t seed = 0;
  std::vector<double> coordinates, parameters;  // the draws
  std::string status = "ok", reason, message;   // reason: stop_reason_code, "" for ok
  bool invalid_draw = false;
  double t_final = 0.0, t_rest = -1.0;          // t_rest < 0: never at rest
  double stepped_time = 0.0;                    // [s] the `step` events' lengths summed
  double deepest_penetration = std::nan("");    // [m] NaN: the run failed before it was measured
  long impacts = 0, events = 0, time_steps = 0, dependent_closes = 0;
  std::vector<double> q, v;                     // the final state
  double kinetic_energy = 0.0;
  std::vector<bool> closed;                     // per contact at the end
  std::vector<double> outcomes;                 // the scene's outcome columns
};

// The runs.csv line of a record of `scene`'s batch (its output precision and outcome kinds).
std::string format_run(const Scene& scene, const RunRecord& record);

// Run `run` of the batch seeded `seed`, as a record (run_one without the formatting).
RunRecord run_record(const Scene& base, const System& base_quiet, const ImpactLaw& base_law, const std::string& law_name,
                     std::uint64_t seed, long run, const std::string& trajectory_dir, bool plot);

// Run `run` of the batch seeded `seed`, as a runs.csv line. A run that stops early keeps its row:
// status `failed`, the reason's code and message, and the state where it stopped (the same with or
// without its trajectory). With a trajectory directory the run also writes its trajectory.csv and
// events.csv there (under the scene's system, and with `plot` the shapes and poses that plots and
// the viewer draw from); without, it runs
// `base_quiet` (final_row_only of the scene's), which writes only the final row. A caught signal
// (app/interrupt.hpp) ends the run early: the batch drops its row.
std::string run_one(const Scene& base, const System& base_quiet, const ImpactLaw& base_law, const std::string& law_name,
                    std::uint64_t seed, long run, const std::string& trajectory_dir, bool plot);

}  // namespace impactsim
