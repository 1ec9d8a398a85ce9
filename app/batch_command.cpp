// impactsim batch: many full event-driven runs of a scene, each impact drawing from its law; and
// impactsim merge: join batch slices. Run i's generator is seeded from (seed, i) alone, so any run
// replays on its own and runs.csv is byte-identical for any thread count and any split into slices.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

#include <spdlog/spdlog.h>

#include "app/command_setup.hpp"
#include "app/commands.hpp"
#include "app/sample_seed.hpp"
#include "core/hybrid.hpp"
#include "impact/laws.hpp"

namespace impactsim {
namespace {

namespace fs = std::filesystem;

std::string format_number(double x, int precision) {
  std::ostringstream s;
  s.precision(precision);
  s << x;
  return s.str();
}

std::vector<std::string> run_columns(const Scene& scene) {
  std::vector<std::string> c{"run", "seed"};
  for (const RandomCoordinate& r : scene.randomize) c.push_back("init." + r.name);
  for (const char* n : {"status", "t_final", "impacts", "events"}) c.push_back(n);
  for (const auto& n : scene.model.q_names) c.push_back("final." + n);
  for (const auto& n : scene.model.v_names) c.push_back("final." + n);
  c.push_back("final.kinetic_energy");
  for (const ContactDef& d : scene.contacts) c.push_back(d.name + ".closed");
  return c;
}

std::string join(const std::vector<std::string>& cells) {
  std::string line;
  for (size_t k = 0; k < cells.size(); ++k) line += (k ? "," : "") + cells[k];
  return line;
}

// One run, as a runs.csv line. A run that stops early keeps its row, with the reason as its status.
std::string run_one(const Scene& scene, const ContactModel& contacts, const ImpactLaw& law, std::uint64_t seed, long run,
                    int precision) {
  const std::uint64_t run_seed = sample_seed(seed, static_cast<std::uint64_t>(run));
  Rng rng(run_seed);
  std::vector<double> drawn;
  const State initial = draw_initial_state(scene.initial, scene.randomize, rng, drawn);
  long impacts = 0, events = 0;
  double t_final = 0;
  Eigen::VectorXd q = initial.q, v = initial.v;
  HybridCallbacks cb;
  cb.sample = [&](const Sample& s) {
    t_final = s.t;
    q = s.q;
    v = s.v;
  };
  cb.event = [&](const Event& e) {
    ++events;
    impacts += e.kind == "impact" || e.kind == "zeno" || e.kind == "iwc";
  };
  std::string status = "ok";
  try {
    simulate_hybrid(scene.model, contacts, law, scene.simulation, scene.contact, initial, rng, cb);
  } catch (const SimulationError& e) {
    status = "failed";
    t_final = e.time();
  }
  std::vector<std::string> cells{std::to_string(run), std::to_string(run_seed)};
  for (double x : drawn) cells.push_back(format_number(x, precision));
  for (const std::string& c : {status, format_number(t_final, precision), std::to_string(impacts), std::to_string(events)})
    cells.push_back(c);
  for (double x : q) cells.push_back(format_number(x, precision));
  for (double x : v) cells.push_back(format_number(x, precision));
  const auto [K, U] = energies(scene.model, q, v);
  (void)U;
  cells.push_back(format_number(K, precision));
  // A contact is closed at the end if it touches and neither approaches nor separates.
  ContactDynamics dyn(scene.model, contacts, scene.contact);
  dyn.update(q, v);
  for (int i = 0; i < contacts.size(); ++i) {
    const bool closed = dyn.frame(i).phi <= scene.contact.distance_tolerance &&
                        std::abs(dyn.J(i).row(0).dot(v)) <= 1e-6 * std::max(1.0, v.cwiseAbs().maxCoeff());
    cells.push_back(closed ? "1" : "0");
  }
  return join(cells);
}

// The complete lines of runs.csv (a run killed mid-write may leave a partial last line).
std::vector<std::string> complete_lines(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  return lines;
}

// summary.json from the rows themselves, so a merged batch and a single one agree byte for byte.
void write_summary(const fs::path& dir, const std::vector<std::string>& lines) {
  if (lines.empty()) return;
  std::vector<std::string> header;
  std::stringstream hs(lines[0]);
  for (std::string c; std::getline(hs, c, ',');) header.push_back(c);
  long runs = 0, failed = 0;
  double impacts = 0, ke_sum = 0, ke_min = INFINITY, ke_max = -INFINITY;
  std::map<std::string, long> closed;
  for (size_t k = 1; k < lines.size(); ++k) {
    std::vector<std::string> cells;
    std::stringstream s(lines[k]);
    for (std::string c; std::getline(s, c, ',');) cells.push_back(c);
    if (cells.size() != header.size()) continue;
    ++runs;
    for (size_t c = 0; c < header.size(); ++c) {
      if (header[c] == "status" && cells[c] != "ok") ++failed;
      if (header[c] == "impacts") impacts += std::stod(cells[c]);
      if (header[c] == "final.kinetic_energy") {
        const double K = std::stod(cells[c]);
        ke_sum += K;
        ke_min = std::min(ke_min, K);
        ke_max = std::max(ke_max, K);
      }
      if (header[c].size() > 7 && header[c].ends_with(".closed")) closed[header[c]] += cells[c] == "1";
    }
  }
  std::ofstream out(dir / "summary.json");
  out.precision(12);
  out << "{\n  \"runs\": " << runs << ",\n  \"failed\": " << failed << ",\n  \"mean_impacts\": "
      << (runs ? impacts / runs : 0) << ",\n  \"final_kinetic_energy\": {\"mean\": " << (runs ? ke_sum / runs : 0)
      << ", \"min\": " << (runs ? ke_min : 0) << ", \"max\": " << (runs ? ke_max : 0) << "},\n  \"closed_fraction\": {";
  bool first = true;
  for (const auto& [name, n] : closed) {
    out << (first ? "" : ", ") << '"' << name.substr(0, name.size() - 7) << "\": " << static_cast<double>(n) / runs;
    first = false;
  }
  out << "}\n}\n";
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
  const std::unique_ptr<ImpactLaw> law = make_law(law_name, scene.laws);
  if (!law) {
    spdlog::error("--law: unknown impact law '{}'", law_name);
    return kExitUsage;
  }
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

  // Resume: keep the complete rows already written (they are a prefix, written in order).
  long next = first;
  if (o.resume && fs::exists(path)) {
    std::vector<std::string> lines = complete_lines(path);
    if (lines.empty() || lines[0] != header) {
      spdlog::error("{}: cannot resume: its header does not match this scene", path.string());
      return kExitOutput;
    }
    next = first + static_cast<long>(lines.size()) - 1;
    std::ofstream rewrite(path, std::ios::binary | std::ios::trunc);  // drops a partial last line
    for (const auto& l : lines) rewrite << l << '\n';
    spdlog::info("resuming at run {} ({} runs already done)", next, next - first);
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
  const ContactModel contacts(scene.geometries, scene.contacts, scene.model.planar);
  Progress progress(end - first, o.quiet);
  const long chunk = std::max<long>(64, 16L * o.threads);
  std::vector<std::string> lines(chunk);
  const auto start = std::chrono::steady_clock::now();
  for (long base = next; base < end; base += chunk) {
    const long count = std::min(chunk, end - base);
    auto work = [&](int k) {
      for (long i = count * k / o.threads; i < count * (k + 1) / o.threads; ++i)
        lines[i] = run_one(scene, contacts, *law, seed, base + i, scene.output.precision);
    };
    std::vector<std::thread> pool;
    for (int k = 1; k < o.threads; ++k) pool.emplace_back(work, k);
    work(0);
    for (auto& t : pool) t.join();
    for (long i = 0; i < count; ++i) out << lines[i] << '\n';
    out.flush();  // a chunk at a time: an interrupted batch keeps every finished chunk
    if (!out) {
      spdlog::error("{}: write failed", path.string());
      return kExitOutput;
    }
    progress.update(base + count - first);
  }
  out.close();
  write_summary(dir, complete_lines(path));
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  spdlog::info("wrote runs {}..{} to {} and summary.json; timing: {:.3f} s wall, {:.0f} runs/s", first, end - 1,
               path.string(), wall, (end - next) / std::max(wall, 1e-9));
  return kExitOk;
}

int merge_command(const std::vector<std::string>& inputs, const std::string& output_dir) {
  std::map<long, std::string> rows;
  std::string header;
  for (const std::string& in : inputs) {
    const fs::path path = fs::path(in) / "runs.csv";
    const std::vector<std::string> lines = complete_lines(path);
    if (lines.empty()) {
      spdlog::error("{}: no runs.csv to merge", path.string());
      return kExitOutput;
    }
    if (header.empty()) header = lines[0];
    if (lines[0] != header) {
      spdlog::error("{}: its columns differ from the first slice's", path.string());
      return kExitOutput;
    }
    for (size_t k = 1; k < lines.size(); ++k) {
      const long run = std::stol(lines[k].substr(0, lines[k].find(',')));
      if (!rows.emplace(run, lines[k]).second) {
        spdlog::error("{}: run {} is also in another slice", path.string(), run);
        return kExitOutput;
      }
    }
  }
  std::error_code ec;
  fs::create_directories(output_dir, ec);
  std::ofstream out(fs::path(output_dir) / "runs.csv", std::ios::binary | std::ios::trunc);
  out << header << '\n';
  std::vector<std::string> all{header};
  for (const auto& [run, line] : rows) {
    out << line << '\n';
    all.push_back(line);
  }
  out.close();
  if (!out) {
    spdlog::error("{}: write failed", output_dir);
    return kExitOutput;
  }
  write_summary(output_dir, all);
  spdlog::info("merged {} runs into {}", rows.size(), output_dir);
  return kExitOk;
}

}  // namespace impactsim
