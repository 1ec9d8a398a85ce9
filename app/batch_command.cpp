// impactsim batch: many full runs of a scene, each impact drawing from its law. Run i's generator is
// seeded from (seed, i) alone, so any run replays on its own and runs.csv is byte-identical for any
// thread count and any split into slices (impactsim merge joins them).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "app/batch_identity.hpp"
#include "app/batch_row.hpp"
#include "app/batch_summary.hpp"
#include "app/command_setup.hpp"
#include "app/commands.hpp"
#include "app/interrupt.hpp"
#include "app/metadata.hpp"
#include "app/output_lock.hpp"
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
  std::optional<OutputLock> lock;  // held while the batch writes DIR
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
  plan.lock = lock_output_or_report(plan.dir);
  if (!plan.lock) return kExitOutput;
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
long open_runs_file(const BatchOptions& o, const BatchPlan& plan, const BatchIdentity& identity,
                    const std::vector<std::string>& columns, int precision, std::optional<CsvWriter>& out) {
  try {
    if (o.resume && fs::exists(plan.path)) {
      const long next = resume_point(plan.dir, identity);
      if (next >= 0) out.emplace(plan.path.string(), columns.size(), precision, CsvWriter::Append{});
      return next;
    }
    write_batch_identity(plan.dir, identity);
    out.emplace(plan.path.string(), columns, precision);
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return -1;
  }
  return plan.first;
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

// A signal caught: the rows not yet written are dropped.
struct Interrupted {};

enum class RowsWritten { all, failed, interrupted };

// Runs [next, end) into out, rows in run order, a chunk at a time. A caught signal stops it at the
// next row: every row written is a whole run's, and --resume completes the rest.
RowsWritten run_rows(const BatchOptions& o, const Scene& scene, const BatchPlan& plan, long next, CsvWriter& out) {
  const System quiet = final_row_only(scene.system);
  Progress progress("batch", "runs", plan.end - plan.first, o.quiet);
  try {
    ordered_parallel_map<std::string>(
        next, plan.end, o.threads, std::max<long>(64, 16L * o.threads),
        [&](long i, std::string& line) {
          line = run_one(scene, quiet, *plan.law, plan.law_name, plan.seed, i, trajectory_dir(o, plan, i),
                         o.plot || o.view);
        },
        [&](long, const std::string& line) {
          if (caught_signal()) throw Interrupted{};
          out.line(line, 1 + static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')));  // run_one's cells hold no comma
        },
        [&](long done) {
          out.flush();  // a chunk at a time: an interrupted batch keeps every finished chunk
          progress.update(done - plan.first);
        });
  } catch (const Interrupted&) {  // the rows consumed so far go out when the writer closes
    return RowsWritten::interrupted;
  } catch (const std::runtime_error& e) {
    spdlog::error("{}; {} is cut back to its last whole row (`--resume` continues from there)", e.what(),
                  plan.path.string());
    return RowsWritten::failed;
  }
  return RowsWritten::all;
}

// The command line that completes an interrupted batch: its own, with --resume for --force.
std::string resume_command(const std::string& command_line) {
  std::string out;
  std::size_t start = 0;
  while (start <= command_line.size()) {
    const std::size_t space = command_line.find(' ', start);
    const std::string word = command_line.substr(start, space == std::string::npos ? std::string::npos : space - start);
    if (word != "--force" && word != "--resume" && !word.empty()) out += (out.empty() ? "" : " ") + word;
    if (space == std::string::npos) break;
    start = space + 1;
  }
  return out + " --resume";
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
  // Written under another name and renamed into place once whole: a failed write (a full disk)
  // leaves no runs.h5 that could be taken for the batch's.
  const fs::path partial = fs::path(plan.dir) / "runs.h5.partial";
  try {
    const long rows = write_runs_hdf5(plan.path, partial);
    fs::rename(partial, h5);
    spdlog::info("wrote {} rows to {}", rows, h5.string());
  } catch (const std::exception& e) {
    std::error_code ec;
    fs::remove(partial, ec);
    fs::remove(h5, ec);
    spdlog::error("{}; {} is not written ({} keeps every run)", e.what(), h5.string(), plan.path.string());
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

// A batch a signal ended: its summary.json of the runs so far, marked interrupted with how to
// resume; exit 128 + the signal, as a shell reports it.
int interrupted(const BatchOptions& o, const Scene& scene, const BatchPlan& plan, const Metadata& about,
                MetadataFile& metadata) {
  const int signal = caught_signal();
  const std::string resume = resume_command(o.command_line);
  const nlohmann::ordered_json note = {{"signal", signal_name(signal)}, {"resume", resume}};
  try {
    const FailureCounts counts = write_summary(plan.dir, provenance_json(about, scene), note.dump());
    spdlog::error("interrupted by {}: {} of runs {}..{} are in {}; `{}` completes the batch", signal_name(signal),
                  counts.runs, plan.first, plan.end - 1, plan.path.string(), resume);
  } catch (const std::runtime_error& e) {
    spdlog::error("interrupted by {}, and {}", signal_name(signal), e.what());
  }
  metadata.finish("interrupted");
  return 128 + signal;
}

}  // namespace

int batch_command(const BatchOptions& o) {
  // From the start: a signal that comes while the batch sets up ends it at its first row, with the
  // same summary as one that comes later.
  const InterruptWatch interrupts;
  const std::optional<Scene> loaded = load_scene_or_report(o.scene, o.overrides);
  if (!loaded) return kExitScene;
  const Scene& scene = *loaded;
  BatchPlan plan;
  if (const int code = plan_batch(o, scene, plan); code != kExitOk) return code;
  const std::vector<std::string> columns = run_columns(scene);
  const BatchIdentity identity{o.scene, scene_content_sha256(scene), plan.law_name, plan.seed, o.runs, plan.first,
                               plan.end - plan.first, join_cells(columns)};
  std::optional<CsvWriter> out;
  const long next = open_runs_file(o, plan, identity, columns, scene.output.precision, out);
  if (next < 0) return kExitOutput;
  const Metadata about{"batch", o.command_line, plan.law_name, plan.seed};
  std::optional<MetadataFile> metadata = open_metadata_or_report(plan.dir, about, scene);
  if (!metadata) return kExitOutput;
  spdlog::info("scene {}: runs {}..{} of {}, law {}, seed {}, {} threads", scene.name, plan.first, plan.end - 1, o.runs,
               plan.law_name, plan.seed, o.threads);
  const auto start = std::chrono::steady_clock::now();
  const RowsWritten rows = run_rows(o, scene, plan, next, *out);
  if (rows == RowsWritten::failed) return kExitOutput;
  out.reset();  // every row flushed: summary.json reads them
  if (rows == RowsWritten::interrupted) return interrupted(o, scene, plan, about, *metadata);
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
  if (counts.time_step_runs > 0)
    spdlog::warn("{} of {} runs {} (time_steps in runs.csv)", counts.time_step_runs, counts.runs, kTimeStepMeaning);
  if (o.plot && !plot_batch(o, scene, plan)) return kExitOutput;
  if (o.view && !run_view_tool(plan.dir)) return kExitOutput;
  metadata->finish();
  return kExitOk;
}

}  // namespace impactsim
