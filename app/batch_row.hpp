#pragma once
// One run of a batch as its runs.csv row: the columns, and the run that fills them. Run i draws
// from a generator seeded by (seed, i) alone (app/sample_seed.hpp), so its row is the same in any
// batch, on any thread, in any slice.
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

// Run `run` of the batch seeded `seed`, as a runs.csv line. A run that stops early keeps its row:
// status `failed`, the reason's code and message, and the state where it stopped (the same with or
// without its trajectory). With a trajectory directory the run also writes its trajectory.csv and
// events.csv there (under the scene's system, and its plots' inputs with `plot`); without, it runs
// `base_quiet` (final_row_only of the scene's), which writes only the final row. A caught signal
// (app/interrupt.hpp) ends the run early: the batch drops its row.
std::string run_one(const Scene& base, const System& base_quiet, const ImpactLaw& base_law, const std::string& law_name,
                    std::uint64_t seed, long run, const std::string& trajectory_dir, bool plot);

}  // namespace impactsim
