// impactsim run: simulate a scene and write DIR/trajectory.csv and DIR/events.csv.
#include <chrono>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "app/command_setup.hpp"
#include "app/commands.hpp"
#include "app/plot_output.hpp"
#include "app/run_files.hpp"
#include "app/sample_seed.hpp"
#include "core/hybrid.hpp"
#include "impact/laws.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {

int run_command(const RunOptions& options) {
  const std::optional<Scene> loaded = load_scene_or_report(options.scene);
  if (!loaded) return kExitScene;
  const Scene& scene = *loaded;
  const std::string law_name = options.law.empty() ? scene.law : options.law;
  const std::unique_ptr<ImpactLaw> law = make_law(law_name, scene.laws);
  if (!law) {
    spdlog::error("--law: unknown impact law '{}'", law_name);
    return kExitUsage;
  }
  const unsigned long long batch_seed = options.seed >= 0 ? static_cast<unsigned long long>(options.seed) : scene.seed;
  // Run i of a batch draws from sample_seed(S, i) alone: --run replays it.
  const unsigned long long seed =
      options.run >= 0 ? sample_seed(batch_seed, static_cast<unsigned long long>(options.run)) : batch_seed;
  const std::string dir = prepare_output_directory(options.output_dir, scene);
  if (dir.empty()) return kExitOutput;
  const std::string path = (std::filesystem::path(dir) / "trajectory.csv").string();
  const std::string events_path = (std::filesystem::path(dir) / "events.csv").string();
  spdlog::info("scene {}: {} bodies, nq = {}, nv = {}{}, {} contacts, law {}, seed {}", scene.name,
               scene.model.bodies.size(), scene.model.nq, scene.model.nv, scene.model.planar ? ", planar" : "",
               scene.contacts.size(), law_name, seed);

  const auto start = std::chrono::steady_clock::now();
  try {
    RunFiles files(dir, scene);
    const CsvWriter &csv = files.trajectory(), &events = files.events();
    const ContactModel contacts(scene.geometries, scene.contacts, scene.model.planar);
    HybridCallbacks callbacks = files.callbacks();
    std::unique_ptr<PoseWriter> poses;
    if (options.plot && scene.model.planar) {
      write_outlines(dir, scene);
      poses = std::make_unique<PoseWriter>(dir, scene);
      callbacks.sample = [&, write = callbacks.sample](const Sample& s) {
        write(s);
        poses->row(s);
      };
    }
    Rng rng(seed);
    std::vector<double> drawn;
    const State initial = draw_initial_state(scene.initial, scene.randomize, rng, drawn);
    for (size_t k = 0; k < drawn.size(); ++k) spdlog::info("drawn {} = {}", scene.randomize[k].name, drawn[k]);
    HybridStats stats;
    try {
      stats = simulate_hybrid(scene.model, contacts, *law, scene.simulation, scene.contact, initial, rng, callbacks);
    } catch (const SimulationError& e) {
      spdlog::error("{}: {}", options.scene, e.what());
      spdlog::error("{} rows up to t = {} s are kept in {}, {} events in {}", csv.rows(), e.time(), path,
                    events.rows(), events_path);
      if (options.plot) plot_run(dir, scene);  // up to the failure
      return kExitSimulation;
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    spdlog::info("wrote {} rows to {} and {} events ({} impacts) to {}", csv.rows(), path, events.rows(),
                 stats.impacts, events_path);
    if (!scene.contacts.empty()) spdlog::info("deepest penetration {:.3g} m", std::max(0.0, -stats.min_phi));
    spdlog::info("timing: {:.3f} s simulated in {:.4f} s wall; {} steps accepted, {} rejected, {} dynamics evaluations",
                 scene.simulation.t_end, wall, stats.accepted_steps, stats.rejected_steps, stats.rhs_evaluations);
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return kExitOutput;
  }
  if (options.plot && !plot_run(dir, scene)) return kExitOutput;
  return kExitOk;
}

}  // namespace impactsim
