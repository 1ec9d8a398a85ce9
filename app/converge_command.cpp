// impactsim converge: a fixed-step integrator at several step sizes against the event-driven
// solution of the same scene; DIR/convergence.csv and, with --plot, convergence.png.
#include <chrono>
#include <cmath>
#include <filesystem>

#include <spdlog/spdlog.h>

#include "app/command_setup.hpp"
#include "app/commands.hpp"
#include "app/csv_writer.hpp"
#include "app/metadata.hpp"
#include "app/output_lock.hpp"
#include "app/plot_output.hpp"
#include "core/integrators.hpp"

namespace impactsim {
namespace {

struct Rows {
  std::vector<double> t;
  std::vector<Eigen::VectorXd> q, v;
};

Rows simulate_rows(const Scene& scene, const ImpactLaw& law, unsigned long long seed, RunStats& report) {
  Rows rows;
  RunCallbacks cb;
  cb.sample = [&](const Sample& s) {
    rows.t.push_back(s.t);
    rows.q.push_back(s.q);
    rows.v.push_back(s.v);
  };
  Rng rng(seed);
  report = simulate(scene.system, law, scene.initial, rng, cb);
  return rows;
}

struct Errors {
  double q_max = 0.0, q_final = 0.0, v_final = 0.0;
};

Errors compare(const Rows& a, const Rows& ref) {
  Errors e;
  const size_t n = std::min(a.t.size(), ref.t.size());
  for (size_t k = 0; k < n; ++k) e.q_max = std::max(e.q_max, (a.q[k] - ref.q[k]).cwiseAbs().maxCoeff());
  if (n > 0) {
    e.q_final = (a.q[n - 1] - ref.q[n - 1]).cwiseAbs().maxCoeff();
    e.v_final = (a.v[n - 1] - ref.v[n - 1]).cwiseAbs().maxCoeff();
  }
  return e;
}

// The options' step sizes and integrator, every step checked before the first run starts; the
// scene switched to the integrator tested. The exit code of what is wrong, else kExitOk.
int check_steps(const ConvergeOptions& options, Scene& scene) {
  if (options.steps.size() < 2) {
    spdlog::error("--steps: give at least two step sizes, e.g. --steps 0.01,0.005,0.0025");
    return kExitUsage;
  }
  for (double h : options.steps)
    if (!(h > 0) || !std::isfinite(h)) {
      spdlog::error("--steps: step sizes must be positive numbers, found {}", h);
      return kExitUsage;
    }
  const bool event_driven = scene.system.integrator == Integrator::event_driven;
  for (double h : options.steps) {
    Scene probe = scene;
    const std::string error =
        override_integrator(probe, options.integrator.empty() && event_driven ? "time-stepping" : options.integrator, h);
    if (!error.empty()) {
      spdlog::error("--steps {}: {}", h, error.substr(error.find(": ") + 2));
      return kExitUsage;
    }
  }
  if (!scene.system.pins.empty()) {
    spdlog::error("{}: the scene has pins (constraints), so there is no event-driven reference to converge to",
                  options.scene);
    return kExitUsage;
  }
  const std::string tested = !options.integrator.empty() ? options.integrator
                             : event_driven              ? "time-stepping"
                                                         : std::string(integrator_name(scene.system.integrator));
  if (tested == "event-driven") {
    spdlog::error("--integrator: converge compares a fixed-step integrator (time-stepping or drumwright) with the event-driven one");
    return kExitUsage;
  }
  if (const std::string error = override_integrator(scene, tested, 0.0); !error.empty()) {
    spdlog::error("{}", error);
    return kExitUsage;
  }
  return kExitOk;
}

// One row of convergence.csv per step size against the reference rows; false at a run that fails
// (the rows before it kept).
bool write_convergence(const ConvergeOptions& options, Scene& scene, const ImpactLaw& law, unsigned long long seed,
                       const Rows& ref, const std::string& path) {
  CsvWriter csv(path, {"h", "steps", "impacts", "q_error_max", "q_error_final", "v_error_final", "order", "wall_s"},
                scene.output.precision);
  double previous_error = 0.0, previous_h = 0.0;
  RunStats report;
  for (double h : options.steps) {
    override_integrator(scene, "", h);
    const auto start = std::chrono::steady_clock::now();
    Rows rows;
    try {
      rows = simulate_rows(scene, law, seed, report);
    } catch (const SimulationError& e) {
      spdlog::error("{} at h = {} s failed at t = {} s: {}", describe_integrator(scene.system), h, e.time(), e.what());
      spdlog::error("{} keeps the rows of the step sizes before it", path);
      return false;
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const Errors e = compare(rows, ref);
    const double order = previous_h > 0 && e.q_max > 0 && previous_error > 0
                             ? std::log(previous_error / e.q_max) / std::log(previous_h / h)
                             : std::nan("");
    csv.text_row({std::string(NumberText(h, 12).view()), std::to_string(report.steps), std::to_string(report.impacts),
                  std::string(NumberText(e.q_max, 6).view()), std::string(NumberText(e.q_final, 6).view()),
                  std::string(NumberText(e.v_final, 6).view()),
                  std::isnan(order) ? std::string() : std::string(NumberText(order, 4).view()),
                  std::string(NumberText(wall, 4).view())});
    spdlog::info("{}: max |q - q_ref| = {:.4g}, final |q - q_ref| = {:.4g}, final |v - v_ref| = {:.4g}{} ({:.3f} s wall)",
                 describe_integrator(scene.system), e.q_max, e.q_final, e.v_final,
                 std::isnan(order) ? std::string() : fmt::format(", observed order {:.2f}", order), wall);
    previous_error = e.q_max;
    previous_h = h;
  }
  return true;
}

}  // namespace

int converge_command(const ConvergeOptions& options) {
  std::optional<Scene> loaded = load_scene_or_report(options.scene, options.overrides);
  if (!loaded) return kExitScene;
  Scene scene = *loaded;
  if (const int code = check_steps(options, scene); code != kExitOk) return code;
  const std::string law_name = options.law.empty() ? scene.law : options.law;
  const std::unique_ptr<ImpactLaw> law = make_law_or_report(law_name, scene);
  if (!law) return kExitUsage;
  const unsigned long long seed = options.seed >= 0 ? static_cast<unsigned long long>(options.seed) : scene.seed;
  const std::string dir = prepare_output_directory(options.output_dir, scene);
  if (dir.empty()) return kExitOutput;
  const std::optional<OutputLock> lock = lock_output_or_report(dir);
  if (!lock) return kExitOutput;
  const std::string path = (std::filesystem::path(dir) / "convergence.csv").string();
  // metadata.json's settings: the tested integrator at the first step size (the command line lists
  // the others; every one was checked above).
  Scene described = scene;
  override_integrator(described, "", options.steps.front());
  std::optional<MetadataFile> metadata =
      open_metadata_or_report(dir, {"converge", options.command_line, law_name, seed}, described);
  if (!metadata) return kExitOutput;
  Scene reference = scene;
  reference.system.integrator = Integrator::event_driven;
  RunStats report;
  Rows ref;
  try {
    ref = simulate_rows(reference, *law, seed, report);
  } catch (const SimulationError& e) {
    spdlog::error("{}: the event-driven reference failed at t = {} s: {}", options.scene, e.time(), e.what());
    return kExitSimulation;
  }
  spdlog::info("reference: event-driven, law {}, seed {}: {} rows, {} impacts", law_name, seed, ref.t.size(), report.impacts);
  try {
    if (!write_convergence(options, scene, *law, seed, ref, path)) return kExitSimulation;
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return kExitOutput;
  }
  spdlog::info("wrote {}", path);
  if (options.plot && !run_plot_tool("converge", dir)) return kExitOutput;
  metadata->finish();
  return kExitOk;
}

}  // namespace impactsim
