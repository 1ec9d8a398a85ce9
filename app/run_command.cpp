// impactsim run: simulate a scene and write DIR/trajectory.csv and DIR/events.csv.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>

#include <spdlog/spdlog.h>

#include "app/command_setup.hpp"
#include "app/commands.hpp"
#include "app/metadata.hpp"
#include "app/output_lock.hpp"
#include "app/plot_output.hpp"
#include "app/run_draw.hpp"
#include "app/run_files.hpp"
#include "app/run_progress.hpp"
#include "app/run_tally.hpp"
#include "app/sample_seed.hpp"
#include "core/integrators.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

// The Zeno closes that held nearly dependent contacts (closes_dependent_rows): the run's motion
// after them is partly the rule's, not the scene's physics, and the user should know.
void warn_dependent_closes(const Scene& scene, const RunTally& tally) {
  if (tally.dependent_closes() == 0) return;
  const Event& e = tally.first_dependent_close();
  std::string names;
  const size_t shown = std::min<size_t>(e.contacts.size(), 4);
  for (size_t k = 0; k < shown; ++k) names += (k ? ", " : "") + scene.system.contacts.contact(e.contacts[k]).name;
  if (shown < e.contacts.size()) names += " and " + std::to_string(e.contacts.size() - shown) + " more";
  const double removed = e.kinetic_before - e.kinetic_after;
  spdlog::warn("{} Zeno close(s) {}; the first at t = {} s on {}: {:.3g} J, {:.3g} times what stopping each "
               "contact row alone would remove. The motion after it is partly the Zeno rule's {}",
               tally.dependent_closes(), RunTally::dependent_close_meaning("summary.json"), format_time(e.t), names,
               removed, removed / e.rowwise_loss, RunTally::kDependentCloseReadme);
}

// The run's own draw (run --run I replays batch run I's draw: its coordinates and parameters,
// on its own scene), logged; a plain run starts from the scene's initial values.
std::optional<RunDraw> draw_for_run(const RunOptions& options, const Scene& scene, Rng& rng) {
  RunDraw draw;
  draw.initial = scene.initial;
  if (options.run >= 0) draw = draw_run(scene, rng);
  if (!draw.error.empty()) {
    spdlog::error("run {}: {}", options.run, draw.error);
    return std::nullopt;
  }
  if (draw.scene) override_integrator(*draw.scene, options.integrator, options.step);
  for (size_t k = 0; k < draw.coordinates.size(); ++k) spdlog::info("drawn {} = {}", scene.randomize[k].name, draw.coordinates[k]);
  for (size_t k = 0; k < draw.parameters.size(); ++k)
    spdlog::info("drawn {} = {}", scene.randomize_keys[k].key, draw.parameters[k]);
  if (options.run < 0 && (!scene.randomize.empty() || !scene.randomize_keys.empty()))
    spdlog::info("randomize: not drawn; the scene's values are used (--run I replays batch run I's draw)");
  return draw;
}

// Where a run's rows and events go: its files, the poses --plot draws from, the tally that
// summary.json is written from, and the progress line.
struct RunSinks {
  // poses: also the shapes and poses that --plot and --view draw from.
  RunSinks(const std::string& dir, const Scene& scene, const State& initial, bool poses_too, bool quiet)
      : files(dir, scene), tally(scene, initial), progress(scene.system.simulation.t_end, quiet) {
    callbacks = files.callbacks();
    if (poses_too) {
      write_outlines(dir, scene);
      poses = std::make_unique<PoseWriter>(dir, scene);
      callbacks.sample = [this, write = callbacks.sample](const Sample& s) {
        write(s);
        poses->row(s);
      };
      callbacks.event_sample = [this, write = callbacks.event_sample](const Sample& s) {
        write(s);
        poses->event_row(s);
      };
    }
    callbacks.event = [this, write = callbacks.event](const Event& e) {
      write(e);
      tally.event(e);
    };
    callbacks.sample = [this, write = callbacks.sample](const Sample& s) {
      write(s);
      tally.sample(s);
      progress.at(s.t);
    };
    callbacks.stopped = [this](const Sample& s) { tally.sample(s); };
  }
  RunSinks(const RunSinks&) = delete;
  RunSinks& operator=(const RunSinks&) = delete;
  void flush() {
    files.flush();
    if (poses) poses->flush();
  }
  RunFiles files;
  std::unique_ptr<PoseWriter> poses;
  RunTally tally;
  RunProgress progress;
  RunCallbacks callbacks;
};

// The run's timing report: the event loop's steps, or a fixed-step scheme's solves.
void report_timing(const System& system, const RunStats& stats, double wall) {
  if (system.integrator == Integrator::event_driven) {
    spdlog::info("timing: {:.3f} s simulated in {:.6f} s wall; {} steps accepted, {} rejected, {} dynamics evaluations",
                 system.simulation.t_end, wall, stats.steps, stats.rejected_steps, stats.evaluations);
    return;
  }
  const bool qp = system.integrator == Integrator::drumwright && system.drumwright.problem == SoftProblem::min_norm_qp;
  spdlog::info("timing: {:.3f} s simulated in {:.6f} s wall; {} steps, {} {} solved (worst residual {:.3g})",
               system.simulation.t_end, wall, stats.steps, stats.solves, qp ? "QPs" : "LCPs", stats.max_residual);
  spdlog::info("total variation of v: {:.6g}; of the weighted velocity v^(l,alpha): {:.6g}", stats.variation_v,
               stats.variation_weighted);
  if (!system.pins.empty()) spdlog::info("largest pin drift {:.3g} m", stats.max_pin_drift);
  spdlog::info("largest rise of kinetic plus potential energy above the start's: {:.3g} J", stats.max_energy_gain);
}

// A run that stopped early: everything so far kept, summary.json for where it stopped.
int report_stopped(const RunOptions& options, const std::string& dir, const Scene& scene, const Scene& active,
                   RunSinks& sinks, const SimulationError& e) {
  sinks.flush();
  sinks.progress.done(e.time());
  try {
    write_text_file(std::filesystem::path(dir) / "summary.json",
                    run_summary_json(active, sinks.tally, std::string(stop_reason_code(e.reason())), e.what()));
  } catch (const std::runtime_error& io) {
    spdlog::warn("{}", io.what());
  }
  warn_dependent_closes(active, sinks.tally);
  spdlog::error("{}: {}", options.scene, e.what());
  spdlog::error("{} rows up to t = {} s are kept in {}, {} events in {}", sinks.files.trajectory().rows(), e.time(),
                (std::filesystem::path(dir) / "trajectory.csv").string(), sinks.files.events().rows(),
                (std::filesystem::path(dir) / "events.csv").string());
  if (options.plot) plot_run(dir, scene);  // up to the failure
  if (options.view) run_view_tool(dir);
  return kExitSimulation;
}

// The run itself, its files and its report, under metadata.json.
int simulate_and_write(const RunOptions& options, const Scene& scene, const ImpactLaw& law, const std::string& law_name,
                       unsigned long long seed, const std::string& dir) {
  MetadataFile metadata(dir, {"run", options.command_line, law_name, seed}, scene);
  Rng rng(seed);
  const std::optional<RunDraw> draw = draw_for_run(options, scene, rng);
  if (!draw) return kExitScene;
  const Scene& active = draw->scene_or(scene);
  std::unique_ptr<ImpactLaw> own_law = draw->scene ? make_law(law_name, active.laws) : nullptr;
  RunSinks sinks(dir, active, draw->initial, options.plot || options.view, options.quiet);
  RunStats stats;
  // The timing line measures the run (integration, events, output rows), not the setup before it.
  const auto start = std::chrono::steady_clock::now();
  try {
    stats = simulate(active.system, own_law ? *own_law : law, draw->initial, rng, sinks.callbacks);
  } catch (const SimulationError& e) {
    return report_stopped(options, dir, scene, active, sinks, e);
  }
  sinks.flush();
  sinks.progress.done(sinks.tally.t_final());
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  sinks.tally.finished(stats);
  write_text_file(std::filesystem::path(dir) / "summary.json", run_summary_json(active, sinks.tally, "", ""));
  spdlog::info("wrote {} rows to {} and {} events ({} impacts) to {}", sinks.files.trajectory().rows(),
               (std::filesystem::path(dir) / "trajectory.csv").string(), sinks.files.events().rows(), stats.impacts,
               (std::filesystem::path(dir) / "events.csv").string());
  const System& system = scene.system;
  if (system.contacts.size() > 0) spdlog::info("deepest penetration {:.3g} m", sinks.tally.deepest_penetration());
  warn_dependent_closes(active, sinks.tally);
  if (sinks.tally.time_steps() > 0)
    spdlog::warn("{} of this run's events were steps, {:.3g} s of its time: it {} (time_steps and stepped_time in "
                 "summary.json, `step` in events.csv)",
                 sinks.tally.time_steps(), sinks.tally.stepped_time(), kTimeStepMeaning);
  report_timing(system, stats, wall);
  if (options.plot && !plot_run(dir, scene)) return kExitOutput;
  if (options.view && !run_view_tool(dir)) return kExitOutput;
  metadata.finish();
  return kExitOk;
}

}  // namespace

int run_command(const RunOptions& options) {
  std::optional<Scene> loaded = load_scene_or_report(options.scene, options.overrides);
  if (!loaded) return kExitScene;
  for (const std::string& error : {override_integrator(*loaded, options.integrator, options.step),
                                   law_option_problem(options.law, *loaded)})
    if (!error.empty()) {
      spdlog::error("{}", error);
      return kExitUsage;
    }
  const Scene& scene = *loaded;
  const System& system = scene.system;
  const std::string law_name = options.law.empty() ? scene.law : options.law;
  const std::unique_ptr<ImpactLaw> law = make_law_or_report(law_name, scene);
  if (!law) return kExitUsage;
  const unsigned long long batch_seed = options.seed >= 0 ? static_cast<unsigned long long>(options.seed) : scene.seed;
  // Run i of a batch draws from sample_seed(S, i) alone: --run replays it.
  const unsigned long long seed =
      options.run >= 0 ? sample_seed(batch_seed, static_cast<unsigned long long>(options.run)) : batch_seed;
  const std::string dir = prepare_output_directory(options.output_dir, scene);
  if (dir.empty()) return kExitOutput;
  const std::optional<OutputLock> lock = lock_output_or_report(dir);
  if (!lock) return kExitOutput;
  spdlog::info("scene {}: {} bodies, nq = {}, nv = {}{}, {} contacts, {}, law {}, seed {}", scene.name,
               system.model.bodies.size(), system.model.nq, system.model.nv, system.model.planar ? ", planar" : "",
               system.contacts.size(), describe_integrator(system), law_name, seed);
  try {
    return simulate_and_write(options, scene, *law, law_name, seed, dir);
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return kExitOutput;
  }
}

}  // namespace impactsim
