// impactsim batch: many full runs of a scene, each impact drawing from its law. Run i's generator is
// seeded from (seed, i) alone, so any run replays on its own and runs.csv is byte-identical for any
// thread count and any split into slices (impactsim merge joins them).
#include <chrono>
#include <filesystem>
#include <fstream>

#include <spdlog/spdlog.h>

#include "app/batch_identity.hpp"
#include "app/batch_summary.hpp"
#include "app/command_setup.hpp"
#include "app/commands.hpp"
#include "app/metadata.hpp"
#include "app/csv_writer.hpp"
#include "app/parallel_map.hpp"
#include "app/plot_output.hpp"
#include "app/progress.hpp"
#include "app/run_draw.hpp"
#include "app/run_files.hpp"
#include "app/run_tally.hpp"
#include "app/runs_csv.hpp"
#include "app/runs_hdf5.hpp"
#include "app/sample_seed.hpp"
#include "impact/laws.hpp"

namespace impactsim {
namespace {

namespace fs = std::filesystem;

std::string format_number(double x, int precision) { return std::string(NumberText(x, precision).view()); }

std::vector<std::string> run_columns(const Scene& scene) {
  std::vector<std::string> c{"run", "seed"};
  for (const std::string& d : draw_columns(scene)) c.push_back(d);
  for (const char* n : {"status", "reason", "t_final", "impacts", "events", "time_steps", "dependent_closes", "t_rest"}) c.push_back(n);
  for (const auto& n : scene.system.model.q_names) c.push_back("final." + n);
  for (const auto& n : scene.system.model.v_names) c.push_back("final." + n);
  c.push_back("final.kinetic_energy");
  for (const ContactDef& d : scene.system.contacts.contacts()) c.push_back(d.name + ".closed");
  for (const OutcomeDef& o : scene.outcomes) c.push_back(o.name);
  c.push_back("message");
  return c;
}

// A message as one CSV cell: no commas or line breaks.
std::string as_cell(std::string text) {
  for (char& c : text)
    if (c == ',') c = ';';
    else if (c == '\n' || c == '\r') c = ' ';
  return text;
}

std::string join(const std::vector<std::string>& cells) {
  std::string line;
  for (size_t k = 0; k < cells.size(); ++k) line += (k ? "," : "") + cells[k];
  return line;
}

// The system of a run that writes only its final state: one output row at t_end. Output times do
// not steer the integrator, so the run itself is the same as with the scene's rows.
System final_row_only(System s) {
  s.simulation.output_interval = s.simulation.t_end;
  return s;
}

// One run, as a runs.csv line. A run that stops early keeps its row: status `failed`, the reason's
// code and message, and the state where it stopped (the same with or without its trajectory).
// With a trajectory directory the run also writes its trajectory.csv and events.csv there (under
// `system`, the scene's); without, it runs `quiet`, which writes only the final row.
std::string run_one(const Scene& base, const System& base_quiet, const ImpactLaw& base_law, const std::string& law_name,
                    std::uint64_t seed, long run, const std::string& trajectory_dir, bool plot) {
  const int precision = base.output.precision;
  const std::uint64_t run_seed = sample_seed(seed, static_cast<std::uint64_t>(run));
  Rng rng(run_seed);
  RunDraw draw = draw_run(base, rng);
  std::vector<std::string> cells{std::to_string(run), std::to_string(run_seed)};
  for (double x : draw.coordinates) cells.push_back(format_number(x, precision));
  for (double x : draw.parameters) cells.push_back(format_number(x, precision));
  if (!draw.error.empty()) {  // the drawn parameters make no valid scene: a failed row, empty beyond
    cells.push_back("failed");
    cells.push_back("invalid_draw");
    cells.resize(run_columns(base).size() - 1);
    cells.push_back(as_cell(draw.error));
    return join(cells);
  }
  // With drawn parameters the run has its own scene, and so its own system and law.
  const Scene& scene = draw.scene_or(base);
  std::optional<System> own_quiet;
  std::unique_ptr<ImpactLaw> own_law;
  if (draw.scene) {
    own_quiet = final_row_only(scene.system);
    own_law = make_law(law_name, scene.laws);
  }
  const System& quiet = own_quiet ? *own_quiet : base_quiet;
  const ImpactLaw& law = own_law ? *own_law : base_law;
  const System& system = scene.system;
  const State& initial = draw.initial;
  RunTally tally(scene, initial);
  auto count = [&](const Event& e) { tally.event(e); };
  auto keep = [&](const Sample& s) { tally.sample(s); };
  std::unique_ptr<RunFiles> files;
  std::unique_ptr<PoseWriter> poses;  // for the animation of a plotted run
  RunCallbacks cb;
  if (!trajectory_dir.empty()) {
    files = std::make_unique<RunFiles>(trajectory_dir, scene);
    if (plot) {
      write_outlines(trajectory_dir, scene);
      poses = std::make_unique<PoseWriter>(trajectory_dir, scene);
    }
    cb = files->callbacks(count);
    cb.sample = [&, write = cb.sample](const Sample& s) {
      write(s);
      if (poses) poses->row(s);
      keep(s);
    };
  } else {
    cb.sample = keep;
    cb.event = count;
  }
  cb.stopped = keep;
  std::string status = "ok", reason, message;
  try {
    simulate(files ? system : quiet, law, initial, rng, cb);
  } catch (const SimulationError& e) {
    status = "failed";
    reason = stop_reason_code(e.reason());
    message = as_cell(e.what());
  }
  for (const std::string& c :
       {status, reason, format_number(tally.t_final(), precision), std::to_string(tally.impacts()),
        std::to_string(tally.events()), std::to_string(tally.time_steps()), std::to_string(tally.dependent_closes()),
        tally.t_rest() >= 0 ? format_number(tally.t_rest(), precision) : std::string()})
    cells.push_back(c);
  for (double x : tally.q()) cells.push_back(format_number(x, precision));
  for (double x : tally.v()) cells.push_back(format_number(x, precision));
  cells.push_back(format_number(tally.kinetic_energy(), precision));
  const std::vector<bool> closed = tally.closed();
  for (bool c : closed) cells.push_back(c ? "1" : "0");
  const std::vector<double> outcomes = tally.outcome_values(closed);
  for (size_t k = 0; k < outcomes.size(); ++k)
    cells.push_back(scene.outcomes[k].whole() ? std::to_string(static_cast<long>(outcomes[k]))
                                              : format_number(outcomes[k], precision));
  cells.push_back(message);
  return join(cells);
}

long count_lines(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  long n = 0;
  for (std::string line; std::getline(in, line) && n < 2;) ++n;
  return n;
}

// Continues the batch in dir: keeps the rows of runs.csv that are the slice's first runs (cutting a
// partly written last row) once batch.json shows it is this batch. Returns the next run, or -1
// after logging why it cannot.
long resume_point(const fs::path& dir, const BatchIdentity& identity) {
  const fs::path path = dir / "runs.csv";
  std::string error;
  const std::optional<BatchIdentity> before = read_batch_identity(dir, error);
  if (!before) {
    spdlog::error("cannot resume: {}", error);
    return -1;
  }
  std::string differs = batch_difference(identity, *before);
  if (differs.empty() && (before->first != identity.first || before->count != identity.count))
    differs = "slice " + std::to_string(identity.first) + "+" + std::to_string(identity.count) + " (was " +
              std::to_string(before->first) + "+" + std::to_string(before->count) + ")";
  if (!differs.empty()) {
    spdlog::error("{}: cannot resume: it holds another batch: {}", dir.string(), differs);
    return -1;
  }
  const RunsFileCheck check = check_runs_file(path, identity.first);
  if (!check.error.empty() || check.header != identity.columns) {
    spdlog::error("cannot resume: {}", check.error.empty() ? path.string() + ": its header is not this batch's" : check.error);
    return -1;
  }
  if (check.rows > identity.count) {
    spdlog::error("{}: cannot resume: it holds {} runs, more than the slice's {}", path.string(), check.rows, identity.count);
    return -1;
  }
  std::error_code ec;
  fs::resize_file(path, check.end, ec);
  if (ec) {
    spdlog::error("{}: cannot resume: {}", path.string(), ec.message());
    return -1;
  }
  spdlog::info("resuming at run {} ({} runs already done)", identity.first + check.rows, check.rows);
  return identity.first + check.rows;
}

// What a batch or slice runs: its scene, law, seed and runs [first, end), and where it writes.
struct BatchPlan {
  std::string law_name;
  std::unique_ptr<ImpactLaw> law;
  std::uint64_t seed = 0;
  long first = 0, end = 0;
  std::string dir;
  fs::path path;  // DIR/runs.csv
};

// The plan from the options, or the exit code of what is wrong with them.
int plan_batch(const BatchOptions& o, const Scene& scene, BatchPlan& plan) {
  if (const std::string error = law_option_problem(o.law, scene); !error.empty()) {
    spdlog::error("{}", error);
    return kExitUsage;
  }
  plan.law_name = o.law.empty() ? scene.law : o.law;
  plan.law = make_law_or_report(plan.law_name, scene);
  if (!plan.law) return kExitUsage;
  plan.seed = o.seed >= 0 ? static_cast<std::uint64_t>(o.seed) : scene.seed;
  plan.first = o.first;
  if (plan.first < 0 || plan.first > o.runs) {
    spdlog::error("--first {} is outside 0..{}", plan.first, o.runs);
    return kExitUsage;
  }
  // The slice ends at the last run; a count past it (however large) stops there.
  plan.end = o.count >= 0 && o.count < o.runs - plan.first ? plan.first + o.count : o.runs;
  plan.dir = prepare_output_directory(o.output_dir, scene);
  if (plan.dir.empty()) return kExitOutput;
  plan.path = fs::path(plan.dir) / "runs.csv";
  if (o.resume && o.force) {
    spdlog::error("--resume keeps the runs in {}, --force overwrites them: give one", plan.path.string());
    return kExitUsage;
  }
  if (!o.resume && !o.force && fs::exists(plan.path)) {
    spdlog::error("{} already holds a batch's runs; --resume completes it, --force overwrites it", plan.path.string());
    return kExitUsage;
  }
  return kExitOk;
}

// runs.csv opened for the rows from `next` on: a fresh file with its header and batch.json, or the
// rows of an interrupted batch kept (--resume). -1 where it cannot be.
long open_runs_file(const BatchOptions& o, const BatchPlan& plan, const BatchIdentity& identity, std::ofstream& out) {
  long next = plan.first;
  if (o.resume && fs::exists(plan.path)) {
    next = resume_point(plan.dir, identity);
    if (next < 0) return -1;
  } else {
    try {
      write_batch_identity(plan.dir, identity);
    } catch (const std::runtime_error& e) {
      spdlog::error("{}", e.what());
      return -1;
    }
    std::ofstream(plan.path, std::ios::binary | std::ios::trunc) << identity.columns << '\n';
  }
  out.open(plan.path, std::ios::binary | std::ios::app);
  if (!out) {
    spdlog::error("{}: cannot write", plan.path.string());
    return -1;
  }
  return next;
}

// DIR/runs/<run>/ for the runs below --trajectories, which also write their trajectory.csv and
// events.csv there; "" for the others.
std::string trajectory_dir(const BatchOptions& o, const BatchPlan& plan, long run) {
  if (run >= o.trajectories) return "";
  const fs::path d = fs::path(plan.dir) / "runs" / std::to_string(run);
  std::error_code ec;
  fs::create_directories(d, ec);
  return d.string();
}

// Runs [next, end) into out, rows in run order, a chunk at a time; false where a write failed.
bool run_rows(const BatchOptions& o, const Scene& scene, const BatchPlan& plan, long next, std::ofstream& out) {
  const System quiet = final_row_only(scene.system);
  Progress progress("batch", "runs", plan.end - plan.first, o.quiet);
  try {
    ordered_parallel_map<std::string>(
        next, plan.end, o.threads, std::max<long>(64, 16L * o.threads),
        [&](long i, std::string& line) {
          line = run_one(scene, quiet, *plan.law, plan.law_name, plan.seed, i, trajectory_dir(o, plan, i), o.plot);
        },
        [&](long, const std::string& line) { out << line << '\n'; },
        [&](long done) {
          out.flush();  // a chunk at a time: an interrupted batch keeps every finished chunk
          if (!out) throw std::runtime_error(plan.path.string() + ": write failed");
          progress.update(done - plan.first);
        });
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return false;
  }
  return true;
}

// runs.h5 beside runs.csv with --format hdf5; without it, one left by an earlier batch is removed.
bool write_or_remove_hdf5(const BatchOptions& o, const BatchPlan& plan) {
  const fs::path h5 = fs::path(plan.dir) / "runs.h5";
  if (o.format != "hdf5" && fs::exists(h5)) {
    std::error_code ec;  // an earlier --format hdf5's file no longer matches runs.csv
    fs::remove(h5, ec);
    spdlog::info("removed {}, which no longer matches runs.csv (--format hdf5 writes it)", h5.string());
  }
  if (o.format != "hdf5") return true;
  try {
    const long rows = write_runs_hdf5(plan.path, h5);
    spdlog::info("wrote {} rows to {}", rows, h5.string());
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return false;
  }
  return true;
}

// --plot: the histograms, and each trajectory written that has rows.
bool plot_batch(const BatchOptions& o, const Scene& scene, const BatchPlan& plan) {
  if (!run_plot_tool("batch", plan.dir)) return false;
  for (long run = plan.first; run < std::min(plan.end, o.trajectories); ++run) {
    const fs::path trajectory = fs::path(trajectory_dir(o, plan, run)) / "trajectory.csv";
    std::error_code ec;
    if (fs::file_size(trajectory, ec) == 0 || ec || count_lines(trajectory) < 2) {
      spdlog::warn("run {} stopped before its first row: nothing to plot in {}", run, trajectory.string());
      continue;
    }
    if (!plot_run(trajectory_dir(o, plan, run), scene)) return false;
  }
  return true;
}

}  // namespace

int batch_command(const BatchOptions& o) {
  const std::optional<Scene> loaded = load_scene_or_report(o.scene, o.overrides);
  if (!loaded) return kExitScene;
  const Scene& scene = *loaded;
  BatchPlan plan;
  if (const int code = plan_batch(o, scene, plan); code != kExitOk) return code;
  const BatchIdentity identity{o.scene, scene_content_sha256(scene), plan.law_name, plan.seed, o.runs, plan.first,
                               plan.end - plan.first, join(run_columns(scene))};
  std::ofstream out;
  const long next = open_runs_file(o, plan, identity, out);
  if (next < 0) return kExitOutput;
  const Metadata about{"batch", o.command_line, plan.law_name, plan.seed};
  std::optional<MetadataFile> metadata = open_metadata_or_report(plan.dir, about, scene);
  if (!metadata) return kExitOutput;
  spdlog::info("scene {}: runs {}..{} of {}, law {}, seed {}, {} threads", scene.name, plan.first, plan.end - 1, o.runs,
               plan.law_name, plan.seed, o.threads);
  const auto start = std::chrono::steady_clock::now();
  if (!run_rows(o, scene, plan, next, out)) return kExitOutput;
  out.close();
  FailureCounts counts;
  try {
    counts = write_summary(plan.dir, provenance_json(about, scene));
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return kExitOutput;
  }
  if (!write_or_remove_hdf5(o, plan)) return kExitOutput;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  spdlog::info("wrote runs {}..{} to {} and summary.json: {}; timing: {:.3f} s wall, {:.0f} runs/s", plan.first,
               plan.end - 1, plan.path.string(), counts.text(), wall, (plan.end - next) / std::max(wall, 1e-9));
  if (counts.dependent_close_runs > 0)
    spdlog::warn("{} of {} runs have Zeno closes that {}: their motion after them is partly the Zeno rule's {}",
                 counts.dependent_close_runs, counts.runs, RunTally::dependent_close_meaning("runs.csv"),
                 RunTally::kDependentCloseReadme);
  if (o.plot && !plot_batch(o, scene, plan)) return kExitOutput;
  metadata->finish();
  return kExitOk;
}

}  // namespace impactsim
