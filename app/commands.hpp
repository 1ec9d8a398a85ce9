#pragma once
// The subcommands of the impactsim executable. Each returns the process exit code.
#include <functional>
#include <string>
#include <vector>

#include "scenes/scene.hpp"

namespace impactsim {

// Exit codes shared by every subcommand (documented in docs/guide.md).
enum ExitCode : int {
  kExitOk = 0,
  kExitUsage = 1,       // bad command-line arguments
  kExitScene = 2,       // the scene file is missing, malformed or non-physical
  kExitSimulation = 3,  // the simulation could not go on; output so far is kept
  kExitOutput = 4,      // an output file could not be written
};

struct RunOptions {
  std::string scene;
  std::string output_dir;  // "" = the scene's output.directory, else out/<scene name>
  std::string law;         // "" = the scene's simulation.law
  long long seed = -1;     // < 0 = the scene's simulation.seed
  long long run = -1;      // >= 0: replay run `run` of a batch seeded with `seed`
  bool plot = false;       // also write PNGs and a GIF with tools/plot.py
  bool view = false;       // also write DIR/view.html with tools/view.py
  std::string integrator;  // "" = the scene's simulation.integrator
  double step = 0.0;       // > 0: the fixed-step integrators' h
  std::string command_line;  // for metadata.json
  std::vector<std::string> overrides;  // --set KEY=VALUE
  bool quiet = false;      // no progress line (app/run_progress.hpp)
};

struct ConvergeOptions {
  std::string scene;
  std::string output_dir;
  std::string integrator;     // "" = the scene's, or time-stepping if the scene is event-driven
  std::vector<double> steps;  // h values, at least two
  std::string law;            // of the event-driven reference; "" = the scene's
  long long seed = -1;
  bool plot = false;
  std::string command_line;   // for metadata.json
  std::vector<std::string> overrides;  // --set KEY=VALUE
};

struct ImpactOptions {
  std::string scene;
  std::string output_dir;
  std::string law;            // "" = the scene's simulation.law
  long samples = 1024;
  long long seed = -1;        // < 0 = the scene's simulation.seed
  int threads = 1;
  bool all_solutions = false; // list every Anitescu-Potra solution instead of sampling
  bool orderings = false;     // list every cyclic sequential ordering instead of sampling
  bool plot = false;          // also write the Anitescu-Potra and sequential overlays and post_impact.png
  bool view = false;          // also write DIR/view.html: the sampled set linked to the bodies' motion
  bool quiet = false;         // no progress line
  bool print_summary = true;  // the outcome summary on stdout (a sweep's points leave it to summary.json)
  std::string format = "csv";  // the samples' file: "csv" (samples.csv) or "hdf5" (samples.h5)
  std::string command_line;   // for metadata.json
  std::vector<std::string> overrides;  // --set KEY=VALUE
};

struct BatchOptions {
  std::string scene;
  std::string output_dir;
  std::string law;       // "" = the scene's simulation.law
  long runs = 100;
  long long seed = -1;   // < 0 = the scene's simulation.seed
  int threads = 1;
  long first = 0;        // the slice: runs first .. first + count - 1
  long count = -1;       // < 0 = through the last run
  bool resume = false;   // keep the complete rows of DIR/runs.csv and go on after them
  bool force = false;    // overwrite a DIR/runs.csv already there (else refused)
  long trajectories = 0; // runs 0 .. trajectories - 1 also write DIR/runs/<i>/trajectory.csv, events.csv
  bool quiet = false;
  bool plot = false;     // also write histograms.png, and the plots of the runs with trajectories
  bool view = false;     // also write DIR/view.html of the runs with trajectories
  std::string format = "csv";  // "hdf5": also write DIR/runs.h5 from runs.csv when the batch is complete
  std::string command_line;  // for metadata.json
  std::vector<std::string> overrides;  // --set KEY=VALUE
};

struct SweepOptions {
  std::string scene;
  std::string output_dir;               // "" = the scene's output directory with "-sweep" appended
  std::string command;                  // run, impact or batch
  std::vector<std::string> arguments;   // that command's options (the words after `run|impact|batch`)
  std::vector<std::string> params;      // --param KEY=START:STOP:N or KEY=V1,V2,...
  std::vector<std::string> overrides;   // --set KEY=VALUE, applied at every point before its params
  std::string law;                      // the inner command's --law ("" = the scene's), for metadata.json
  long long seed = -1;                  // the inner command's --seed, for metadata.json
  bool force = false;                   // overwrite a sweep already in DIR
  bool resume = false;                  // keep the points an interrupted sweep in DIR finished; run the rest
  bool plot = false;                    // also draw DIR/sweep.png
  std::string command_line;             // for metadata.json
};

// Runs the sweep's command at one grid point into `dir` with `overrides` (the sweep's --set, then
// the point's parameters); returns its exit code. `resume`: the point was begun by an interrupted
// sweep (a batch completes its runs.csv; run and impact start again).
using SweepPointRunner =
    std::function<int(const std::string& dir, const std::vector<std::string>& overrides, bool resume)>;

int run_command(const RunOptions& options);
int sweep_command(const SweepOptions& options, const SweepPointRunner& run_point);
int batch_command(const BatchOptions& options);
// Also writes DIR/metadata.json (merge_metadata_json) recording `command_line`.
int merge_command(const std::vector<std::string>& inputs, const std::string& output_dir, const std::string& command_line = "");
int impact_command(const ImpactOptions& options);
int check_command(const std::string& scene_path, const std::vector<std::string>& overrides = {});
int converge_command(const ConvergeOptions& options);

// The text `impactsim check` prints: bodies, joints, degrees of freedom, mass, initial energy,
// contacts with their materials, integrator, law and its parameters, seed, randomize, outcomes.
std::string describe_scene(const Scene& scene);

}  // namespace impactsim
