// impactsim batch: many full runs of a scene, each impact drawing from its law. Run i's generator is
// seeded from (seed, i) alone, so any run replays on its own and runs.csv is byte-identical for any
// thread count and any split into slices (impactsim merge joins them).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <spdlog/spdlog.h>

#include "app/batch_summary.hpp"
#include "app/command_setup.hpp"
#include "app/commands.hpp"
#include "app/csv_writer.hpp"
#include "app/parallel_map.hpp"
#include "app/plot_output.hpp"
#include "app/run_files.hpp"
#include "app/runs_csv.hpp"
#include "app/sample_seed.hpp"
#include "impact/laws.hpp"

namespace impactsim {
namespace {

namespace fs = std::filesystem;

std::string format_number(double x, int precision) { return std::string(NumberText(x, precision).view()); }

std::vector<std::string> run_columns(const Scene& scene) {
  std::vector<std::string> c{"run", "seed"};
  for (const RandomCoordinate& r : scene.randomize) c.push_back("init." + r.name);
  for (const char* n : {"status", "t_final", "impacts", "events", "t_rest"}) c.push_back(n);
  for (const auto& n : scene.system.model.q_names) c.push_back("final." + n);
  for (const auto& n : scene.system.model.v_names) c.push_back("final." + n);
  c.push_back("final.kinetic_energy");
  for (const ContactDef& d : scene.system.contacts.contacts()) c.push_back(d.name + ".closed");
  for (const OutcomeDef& o : scene.outcomes) c.push_back(o.name);
  return c;
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

// One run, as a runs.csv line. A run that stops early keeps its row, with the reason as its status.
// With a trajectory directory the run also writes its trajectory.csv and events.csv there (under
// `system`, the scene's); without, it runs `quiet`, which writes only the final row.
std::string run_one(const Scene& scene, const System& quiet, const ImpactLaw& law, std::uint64_t seed, long run,
                    const std::string& trajectory_dir, bool plot) {
  const System& system = scene.system;
  const int precision = scene.output.precision;
  const std::uint64_t run_seed = sample_seed(seed, static_cast<std::uint64_t>(run));
  Rng rng(run_seed);
  std::vector<double> drawn;
  const State initial = draw_initial_state(scene.initial, scene.randomize, rng, drawn);
  long impacts = 0, events = 0;
  double t_final = 0, t_rest = -1;
  std::vector<long> contact_impacts(system.contacts.size(), 0);
  Eigen::VectorXd q = initial.q, v = initial.v;
  auto count = [&](const Event& e) {
    ++events;
    if (e.kind == EventKind::rest) t_rest = e.t;
    if (!is_impact(e.kind)) return;
    ++impacts;
    for (int i : e.contacts) ++contact_impacts[i];
  };
  auto keep = [&](const Sample& s) {
    t_final = s.t;
    q = s.q;
    v = s.v;
  };
  std::unique_ptr<RunFiles> files;
  std::unique_ptr<PoseWriter> poses;  // for the animation of a plotted planar run
  RunCallbacks cb;
  if (!trajectory_dir.empty()) {
    files = std::make_unique<RunFiles>(trajectory_dir, scene);
    if (plot && system.model.planar) {
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
  std::string status = "ok";
  try {
    simulate(files ? system : quiet, law, initial, rng, cb);
  } catch (const SimulationError& e) {
    status = "failed";
    t_final = e.time();
  }
  std::vector<std::string> cells{std::to_string(run), std::to_string(run_seed)};
  for (double x : drawn) cells.push_back(format_number(x, precision));
  for (const std::string& c : {status, format_number(t_final, precision), std::to_string(impacts), std::to_string(events),
                               t_rest >= 0 ? format_number(t_rest, precision) : std::string()})
    cells.push_back(c);
  for (double x : q) cells.push_back(format_number(x, precision));
  for (double x : v) cells.push_back(format_number(x, precision));
  cells.push_back(format_number(energies(system.model, q, v).first, precision));
  const std::vector<bool> closed = closed_contacts(system, q, v);
  for (bool c : closed) cells.push_back(c ? "1" : "0");
  for (const OutcomeDef& o : scene.outcomes) {
    switch (o.kind) {
      case OutcomeDef::Kind::final_value:
        cells.push_back(format_number(o.scale * (o.velocity ? v[o.index] : q[o.index]), precision));
        break;
      case OutcomeDef::Kind::closed: cells.push_back(closed[o.index] ? "1" : "0"); break;
      case OutcomeDef::Kind::impacts: cells.push_back(std::to_string(contact_impacts[o.index])); break;
    }
  }
  return join(cells);
}

class Progress {
 public:
  Progress(long total, bool quiet) : total_(total), quiet_(quiet), tty_(isatty(STDERR_FILENO)) {}
  void update(long done) {
    if (quiet_) return;
    const auto now = std::chrono::steady_clock::now();
    if (done < total_ && now - last_ < std::chrono::seconds(tty_ ? 0 : 5) + std::chrono::milliseconds(200)) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double rate = done / std::max(elapsed, 1e-9);
    const double eta = rate > 0 ? (total_ - done) / rate : 0;
    std::fprintf(stderr, "%sbatch: %ld/%ld runs, %.0f runs/s, ETA %.1f s%s", tty_ ? "\r" : "", done, total_, rate, eta,
                 tty_ && done < total_ ? "" : "\n");
  }

 private:
  long total_;
  bool quiet_, tty_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

}  // namespace

int batch_command(const BatchOptions& o) {
  const std::optional<Scene> loaded = load_scene_or_report(o.scene);
  if (!loaded) return kExitScene;
  const Scene& scene = *loaded;
  const std::string law_name = o.law.empty() ? scene.law : o.law;
  const std::unique_ptr<ImpactLaw> law = make_law_or_report(law_name, scene);
  if (!law) return kExitUsage;
  const std::uint64_t seed = o.seed >= 0 ? static_cast<std::uint64_t>(o.seed) : scene.seed;
  const long first = o.first, end = o.count >= 0 ? std::min(o.runs, o.first + o.count) : o.runs;
  if (first < 0 || first > o.runs) {
    spdlog::error("--first {} is outside 0..{}", first, o.runs);
    return kExitUsage;
  }
  const std::string dir = prepare_output_directory(o.output_dir, scene);
  if (dir.empty()) return kExitOutput;
  const fs::path path = fs::path(dir) / "runs.csv";
  const std::string header = join(run_columns(scene));

  // Resume: keep the complete rows already written (they are a prefix, written in order) and cut a
  // partly written last row.
  long next = first;
  if (o.resume && fs::exists(path)) {
    std::string file_header;
    long rows = 0;
    std::uint64_t complete = 0;
    for_each_line(path, [&](const std::string& line, std::uint64_t offset) {
      if (file_header.empty()) file_header = line;
      else ++rows;
      complete = offset;
    });
    if (file_header != header) {
      spdlog::error("{}: cannot resume: its header does not match this scene", path.string());
      return kExitOutput;
    }
    std::error_code ec;
    fs::resize_file(path, complete, ec);
    if (ec) {
      spdlog::error("{}: cannot resume: {}", path.string(), ec.message());
      return kExitOutput;
    }
    next = first + rows;
    spdlog::info("resuming at run {} ({} runs already done)", next, rows);
  } else {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << header << '\n';
  }
  std::ofstream out(path, std::ios::binary | std::ios::app);
  if (!out) {
    spdlog::error("{}: cannot write", path.string());
    return kExitOutput;
  }
  spdlog::info("scene {}: runs {}..{} of {}, law {}, seed {}, {} threads", scene.name, first, end - 1, o.runs, law_name,
               seed, o.threads);
  const System quiet = final_row_only(scene.system);
  // Runs below --trajectories also write DIR/runs/<i>/trajectory.csv and events.csv.
  auto trajectory_dir = [&](long run) -> std::string {
    if (run >= o.trajectories) return "";
    const fs::path d = fs::path(dir) / "runs" / std::to_string(run);
    std::error_code ec;
    fs::create_directories(d, ec);
    return d.string();
  };
  Progress progress(end - first, o.quiet);
  const auto start = std::chrono::steady_clock::now();
  bool written = true;
  try {
    ordered_parallel_map<std::string>(
        next, end, o.threads, std::max<long>(64, 16L * o.threads),
        [&](long i, std::string& line) { line = run_one(scene, quiet, *law, seed, i, trajectory_dir(i), o.plot); },
        [&](long, const std::string& line) { out << line << '\n'; },
        [&](long done) {
          out.flush();  // a chunk at a time: an interrupted batch keeps every finished chunk
          if (!out) throw std::runtime_error(path.string() + ": write failed");
          progress.update(done - first);
        });
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    written = false;
  }
  if (!written) return kExitOutput;
  out.close();
  try {
    write_summary(dir);
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return kExitOutput;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  spdlog::info("wrote runs {}..{} to {} and summary.json; timing: {:.3f} s wall, {:.0f} runs/s", first, end - 1,
               path.string(), wall, (end - next) / std::max(wall, 1e-9));
  if (o.plot) {
    if (!run_plot_tool("batch", dir)) return kExitOutput;
    for (long run = first; run < std::min(end, o.trajectories); ++run)
      if (!plot_run(trajectory_dir(run), scene)) return kExitOutput;
  }
  return kExitOk;
}

}  // namespace impactsim
