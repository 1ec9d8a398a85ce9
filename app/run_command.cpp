// impactsim run: simulate a scene and write DIR/trajectory.csv and DIR/events.csv.
#include <algorithm>
#include <chrono>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "app/command_setup.hpp"
#include "app/commands.hpp"
#include "app/metadata.hpp"
#include "app/plot_output.hpp"
#include "app/run_draw.hpp"
#include "app/run_files.hpp"
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

}  // namespace

int run_command(const RunOptions& options) {
  std::optional<Scene> loaded = load_scene_or_report(options.scene, options.overrides);
  if (!loaded) return kExitScene;
  if (const std::string error = override_integrator(*loaded, options.integrator, options.step); !error.empty()) {
    spdlog::error("{}", error);
    return kExitUsage;
  }
  if (const std::string error = law_option_problem(options.law, *loaded); !error.empty()) {
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
  const std::string path = (std::filesystem::path(dir) / "trajectory.csv").string();
  const std::string events_path = (std::filesystem::path(dir) / "events.csv").string();
  spdlog::info("scene {}: {} bodies, nq = {}, nv = {}{}, {} contacts, {}, law {}, seed {}", scene.name,
               system.model.bodies.size(), system.model.nq, system.model.nv, system.model.planar ? ", planar" : "",
               system.contacts.size(), describe_integrator(system), law_name, seed);

  try {
    MetadataFile metadata(dir, {"run", options.command_line, law_name, seed}, scene);
    Rng rng(seed);
    // Only a batch run draws the randomize sections: run --run I replays run I's draw (with drawn
    // parameters, on its own scene), a plain run starts from the scene's initial values.
    RunDraw draw;
    draw.initial = scene.initial;
    if (options.run >= 0) draw = draw_run(scene, rng);
    if (!draw.error.empty()) {
      spdlog::error("run {}: {}", options.run, draw.error);
      return kExitScene;
    }
    if (draw.scene) override_integrator(*draw.scene, options.integrator, options.step);
    const Scene& active = draw.scene_or(scene);
    std::unique_ptr<ImpactLaw> own_law = draw.scene ? make_law(law_name, active.laws) : nullptr;
    const ImpactLaw& run_law = own_law ? *own_law : *law;
    for (size_t k = 0; k < draw.coordinates.size(); ++k)
      spdlog::info("drawn {} = {}", scene.randomize[k].name, draw.coordinates[k]);
    for (size_t k = 0; k < draw.parameters.size(); ++k)
      spdlog::info("drawn {} = {}", scene.randomize_keys[k].key, draw.parameters[k]);
    if (options.run < 0 && (!scene.randomize.empty() || !scene.randomize_keys.empty()))
      spdlog::info("randomize: not drawn; the scene's values are used (--run I replays batch run I's draw)");
    const State& initial = draw.initial;
    RunFiles files(dir, active);
    const CsvWriter &csv = files.trajectory(), &events = files.events();
    RunCallbacks callbacks = files.callbacks();
    std::unique_ptr<PoseWriter> poses;
    if (options.plot) {
      write_outlines(dir, active);
      poses = std::make_unique<PoseWriter>(dir, active);
      callbacks.sample = [&, write = callbacks.sample](const Sample& s) {
        write(s);
        poses->row(s);
      };
    }
    RunTally tally(active, initial);
    callbacks.event = [&tally, write = callbacks.event](const Event& e) {
      write(e);
      tally.event(e);
    };
    callbacks.sample = [&tally, write = callbacks.sample](const Sample& s) {
      write(s);
      tally.sample(s);
    };
    callbacks.stopped = [&tally](const Sample& s) { tally.sample(s); };
    const std::filesystem::path summary = std::filesystem::path(dir) / "summary.json";
    RunStats stats;
    // The timing line measures the run (integration, events, output rows), not the setup before it.
    const auto start = std::chrono::steady_clock::now();
    try {
      stats = simulate(active.system, run_law, initial, rng, callbacks);
    } catch (const SimulationError& e) {
      files.flush();
      if (poses) poses->flush();
      try {
        write_text_file(summary, run_summary_json(active, tally, std::string(stop_reason_code(e.reason())), e.what()));
      } catch (const std::runtime_error& io) {
        spdlog::warn("{}", io.what());
      }
      warn_dependent_closes(active, tally);
      spdlog::error("{}: {}", options.scene, e.what());
      spdlog::error("{} rows up to t = {} s are kept in {}, {} events in {}", csv.rows(), e.time(), path,
                    events.rows(), events_path);
      if (options.plot) plot_run(dir, scene);  // up to the failure
      return kExitSimulation;
    }
    files.flush();
    if (poses) poses->flush();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    write_text_file(summary, run_summary_json(active, tally, "", ""));
    spdlog::info("wrote {} rows to {} and {} events ({} impacts) to {}", csv.rows(), path, events.rows(),
                 stats.impacts, events_path);
    if (system.contacts.size() > 0) spdlog::info("deepest penetration {:.3g} m", std::max(0.0, -stats.min_phi));
    warn_dependent_closes(active, tally);
    if (system.integrator == Integrator::event_driven) {
      spdlog::info("timing: {:.3f} s simulated in {:.6f} s wall; {} steps accepted, {} rejected, {} dynamics evaluations",
                   system.simulation.t_end, wall, stats.steps, stats.rejected_steps, stats.evaluations);
    } else {
      const bool qp = system.integrator == Integrator::drumwright && system.drumwright.problem == SoftProblem::min_norm_qp;
      spdlog::info("timing: {:.3f} s simulated in {:.6f} s wall; {} steps, {} {} solved (worst residual {:.3g})",
                   system.simulation.t_end, wall, stats.steps, stats.solves, qp ? "QPs" : "LCPs", stats.max_residual);
      spdlog::info("total variation of v: {:.6g}; of the weighted velocity v^(l,alpha): {:.6g}", stats.variation_v,
                   stats.variation_weighted);
      if (!system.pins.empty()) spdlog::info("largest pin drift {:.3g} m", stats.max_pin_drift);
      spdlog::info("largest rise of kinetic plus potential energy above the start's: {:.3g} J", stats.max_energy_gain);
    }
    if (options.plot && !plot_run(dir, scene)) return kExitOutput;
    metadata.finish();
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return kExitOutput;
  }
  return kExitOk;
}

}  // namespace impactsim
