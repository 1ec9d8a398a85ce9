// impactsim impact: resolve the impact at a scene's initial state many times (Halm and Posa's
// Algorithm 2) and write DIR/samples.csv, or list every Anitescu-Potra solution or every cyclic
// sequential ordering in the same format.
#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "app/command_setup.hpp"
#include "app/commands.hpp"
#include "app/csv_writer.hpp"
#include "app/hdf5_table.hpp"
#include "app/impact_view.hpp"
#include "app/parallel_map.hpp"
#include "app/plot_output.hpp"
#include "app/progress.hpp"
#include "app/metadata.hpp"
#include "app/output_lock.hpp"
#include "app/sample_seed.hpp"
#include "app/sample_writer.hpp"
#include "core/first_impact.hpp"
#include "impact/anitescu_potra.hpp"
#include "impact/laws.hpp"
#include "impact/outcome_class.hpp"
#include "impact/sequential.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

// Every Anitescu-Potra solution; false, with `why`, when the LCP is too large to enumerate its
// 2^n complementary bases.
bool write_ap_solutions(SampleWriter& writer, const ContactSpace& space, const Eigen::VectorXd& v_minus,
                        std::string& why) {
  std::vector<ImpactResult> all;
  try {
    all = anitescu_potra_all_solutions(space, v_minus);
  } catch (const std::invalid_argument& e) {
    why = e.what();
    return false;
  }
  for (size_t k = 0; k < all.size(); ++k) writer.write(static_cast<long>(k), all[k]);
  return true;
}

// Every cyclic sequential ordering, one starting at each contact; `print` lists them on stdout.
void write_orderings(SampleWriter& writer, const Scene& scene, const ContactSpace& space,
                     const Eigen::VectorXd& v_minus, unsigned long long seed, bool print) {
  for (int j = 0; j < space.contacts(); ++j) {
    SequentialSettings s = sequential_settings(scene.laws.of("sequential"));
    s.order = SequentialSettings::Order::cyclic;
    s.start = space.ids[j];
    Rng rng(sample_seed(seed, j));
    const ImpactResult r = SequentialLaw(s).resolve(space, v_minus, rng);
    std::string order;
    for (int i : r.ordering) order += (order.empty() ? "" : ",") + scene.system.contacts.contact(space.ids[i]).name;
    if (print) std::cout << "ordering " << j << ": " << order << (r.terminated ? "" : " (not terminated)") << '\n';
    writer.write(j, r);
  }
}

// The samples of the law, sample i from a generator seeded by (seed, i) alone, so the file is the
// same for any thread count; a chunk is flushed at a time, so what is written survives a later failure.
void sample_law(const ImpactOptions& o, const ImpactLaw& law, const ImpactState& impact, unsigned long long seed,
                SampleWriter& writer) {
  const std::unique_ptr<PreparedImpact> prepared = law.prepare(impact.space, impact.v_minus);
  Progress progress("impact", "samples", o.samples, o.quiet);
  ordered_parallel_map<FormattedSample>(
      0, o.samples, o.threads, 16384,
      [&](long i, FormattedSample& row) {
        Rng rng(sample_seed(seed, static_cast<std::uint64_t>(i)));
        writer.format(i, prepared->sample(static_cast<std::uint64_t>(i), rng), row);
      },
      [&](long, const FormattedSample& row) { writer.append(row); },
      [&](long done) {
        writer.flush();
        progress.update(done);
      });
}

// The post-impact velocities of samples 0 .. n - 1, drawn again as sample_law drew them.
std::vector<Eigen::VectorXd> first_samples(const ImpactLaw& law, const ImpactState& impact, unsigned long long seed,
                                           long n) {
  const std::unique_ptr<PreparedImpact> prepared = law.prepare(impact.space, impact.v_minus);
  std::vector<Eigen::VectorXd> out;
  for (long i = 0; i < n; ++i) {
    Rng rng(sample_seed(seed, static_cast<std::uint64_t>(i)));
    out.push_back(prepared->sample(static_cast<std::uint64_t>(i), rng).v_plus);
  }
  return out;
}

// --plot's overlays of post_impact.png, in samples.csv's format: every Anitescu-Potra solution
// (where the LCP is small enough to enumerate) and every cyclic sequential ordering.
void write_overlays(const std::string& dir, const Scene& scene, const ImpactState& impact, double tol,
                    unsigned long long seed) {
  const std::filesystem::path d(dir);
  std::string why;
  {
    SampleWriter ap((d / "anitescu_potra.csv").string(), scene, impact.space, tol);
    if (write_ap_solutions(ap, impact.space, impact.v_minus, why)) ap.flush();
  }
  if (!why.empty()) {
    spdlog::warn("post_impact.png: no Anitescu-Potra overlay: {}", why);
    std::filesystem::remove(d / "anitescu_potra.csv");
  }
  SampleWriter sequential((d / "sequential.csv").string(), scene, impact.space, tol);
  write_orderings(sequential, scene, impact.space, impact.v_minus, seed, false);
  sequential.flush();
}

// The law the options ask for, or an exit code for options that cannot go together.
int impact_law_name(const ImpactOptions& o, const Scene& scene, std::string& law_name) {
  law_name = o.all_solutions ? "anitescu-potra" : o.orderings ? "sequential" : o.law.empty() ? scene.law : o.law;
  if ((o.all_solutions && !o.law.empty() && o.law != "anitescu-potra") || (o.orderings && !o.law.empty() && o.law != "sequential")) {
    spdlog::error("--all-solutions goes with --law anitescu-potra, --orderings all with --law sequential");
    return kExitUsage;
  }
  if (o.view && (o.all_solutions || o.orderings || o.format == "hdf5")) {
    spdlog::error("--view draws a law's samples from samples.csv: leave out --all-solutions, --orderings and --format hdf5");
    return kExitUsage;
  }
  if (o.plot && o.format == "hdf5") {
    spdlog::error("--plot draws from samples.csv: leave out --format hdf5, or plot the HDF5 file yourself");
    return kExitUsage;
  }
  return kExitOk;
}

// The samples, the summary and their files, under metadata.json.
int write_samples(const ImpactOptions& o, const Scene& scene, const ImpactLaw& law, const std::string& law_name,
                  const ImpactState& impact, unsigned long long seed, const std::string& dir) {
  const bool hdf5 = o.format == "hdf5";
  const std::string path = (std::filesystem::path(dir) / (hdf5 ? "samples.h5" : "samples.csv")).string();
  const double tol = outcome_tolerance(impact.space, impact.v_minus);
  const auto start = std::chrono::steady_clock::now();
  MetadataFile metadata(dir, {"impact", o.command_line, law_name, seed}, scene);
  // Solutions and orderings are few beside a law's samples: their chunks are small.
  const std::size_t rows = o.all_solutions || o.orderings ? 1024 : static_cast<std::size_t>(o.samples);
  SampleWriter writer(path, scene, impact.space, tol, hdf5, rows);
  if (o.all_solutions) {
    if (std::string why; !write_ap_solutions(writer, impact.space, impact.v_minus, why)) {
      spdlog::error("--all-solutions: {}; sample the law instead (without --all-solutions)", why);
      return kExitUsage;
    }
  } else if (o.orderings) {
    write_orderings(writer, scene, impact.space, impact.v_minus, seed, true);
  } else {
    sample_law(o, law, impact, seed, writer);
  }
  writer.flush();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (o.print_summary) {
    std::cout << "scene        " << scene.name << ", law " << law_name << ", seed " << seed << '\n';
    writer.print(std::cout, seconds, !o.all_solutions && !o.orderings);
  }
  if (writer.rows() > 0 && writer.unclassified() == writer.rows()) {
    spdlog::error("{}: none of the {} samples has an outcome (every one labelled collide or failed); {} keeps them",
                  o.scene, writer.rows(), path);
    return kExitSimulation;
  }
  if (writer.unclassified())
    spdlog::warn("{} of {} samples have no outcome (labelled collide or failed, left out of the class counts)",
                 writer.unclassified(), writer.rows());
  write_text_file(std::filesystem::path(dir) / "summary.json", writer.json_text());
  spdlog::info("wrote {} rows to {} and summary.json", writer.rows(), path);
  if (o.plot) write_overlays(dir, scene, impact, tol, seed);
  if (o.plot && !run_plot_tool("impact", dir)) return kExitOutput;
  if (o.view) {
    write_impact_view_files(dir, scene, impact, first_samples(law, impact, seed, std::min(o.samples, kViewSamples)));
    if (!run_view_tool(dir)) return kExitOutput;
  }
  metadata.finish();
  return kExitOk;
}

}  // namespace

int impact_command(const ImpactOptions& o) {
  const std::optional<Scene> loaded = load_scene_or_report(o.scene, o.overrides);
  if (!loaded) return kExitScene;
  const Scene& scene = *loaded;
  std::string law_name;
  if (const int code = impact_law_name(o, scene, law_name); code != kExitOk) return code;
  const std::unique_ptr<ImpactLaw> law = make_law_or_report(law_name, scene);
  if (!law) return kExitUsage;
  ImpactState impact;
  try {
    if (!find_first_impact(scene.system, scene.initial, impact)) {
      spdlog::error("{}: no impact happens before t_end = {} s", o.scene, scene.system.simulation.t_end);
      return kExitScene;
    }
  } catch (const SimulationError& e) {
    spdlog::error("{}: before the first impact: {}", o.scene, e.what());
    return kExitSimulation;
  }
  const unsigned long long seed = o.seed >= 0 ? static_cast<unsigned long long>(o.seed) : scene.seed;
  const std::string dir = prepare_output_directory(o.output_dir, scene);
  if (dir.empty()) return kExitOutput;
  const std::optional<OutputLock> lock = lock_output_or_report(dir);
  if (!lock) return kExitOutput;
  spdlog::info("scene {}: impact of {} contacts at t = {} s, law {}, seed {}", scene.name, impact.space.contacts(),
               impact.t, law_name, seed);
  try {
    return write_samples(o, scene, *law, law_name, impact, seed, dir);
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return kExitOutput;
  }
}

}  // namespace impactsim
