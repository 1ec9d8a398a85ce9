// impactsim run: simulate a scene and write DIR/trajectory.csv.
#include <chrono>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "app/commands.hpp"
#include "app/csv_writer.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

std::vector<std::string> trajectory_columns(const Model& model) {
  std::vector<std::string> columns{"t"};
  columns.insert(columns.end(), model.q_names.begin(), model.q_names.end());
  columns.insert(columns.end(), model.v_names.begin(), model.v_names.end());
  columns.push_back("kinetic_energy");
  columns.push_back("potential_energy");
  return columns;
}

std::string output_directory(const RunOptions& options, const Scene& scene) {
  if (!options.output_dir.empty()) return options.output_dir;
  if (!scene.output.directory.empty()) return scene.output.directory;
  return "out/" + scene.name;
}

}  // namespace

int run_command(const RunOptions& options) {
  Scene scene;
  try {
    scene = load_scene(options.scene);
  } catch (const SceneError& e) {
    spdlog::error("{}", e.what());
    return kExitScene;
  }
  const std::string dir = output_directory(options, scene);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    spdlog::error("{}: cannot create the output directory: {}", dir, ec.message());
    return kExitOutput;
  }
  const std::string path = (std::filesystem::path(dir) / "trajectory.csv").string();
  spdlog::info("scene {}: {} bodies, nq = {}, nv = {}{}", scene.name, scene.model.bodies.size(), scene.model.nq,
               scene.model.nv, scene.model.planar ? ", planar" : "");

  const auto start = std::chrono::steady_clock::now();
  try {
    CsvWriter csv(path, trajectory_columns(scene.model), scene.output.precision);
    SimulationStats stats;
    try {
      stats = simulate_smooth(scene.model, scene.simulation, scene.initial, [&](const Sample& s) {
        csv.row(s.t, s.q, s.v, {s.kinetic_energy, s.potential_energy});
      });
    } catch (const SimulationError& e) {
      spdlog::error("{}: {}", options.scene, e.what());
      spdlog::error("{} rows up to t = {} s are kept in {}", csv.rows(), e.time(), path);
      return kExitSimulation;
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    spdlog::info("wrote {} rows to {}", csv.rows(), path);
    spdlog::info("timing: {:.3f} s simulated in {:.4f} s wall; {} steps accepted, {} rejected, {} dynamics evaluations",
                 scene.simulation.t_end, wall, stats.accepted_steps, stats.rejected_steps, stats.rhs_evaluations);
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return kExitOutput;
  }
  return kExitOk;
}

}  // namespace impactsim
