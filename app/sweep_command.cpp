// impactsim sweep: a run, impact or batch at every point of a grid of scene parameters, each into
// DIR/points/<k>/, and DIR/sweep.csv: one row per point with its parameters, the command's exit code
// and the statistics of its summary.json. A row is written when its point ends, so an interrupted
// sweep's table says which points finished; --resume keeps those and runs the others.
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "app/command_setup.hpp"
#include "app/commands.hpp"
#include "app/csv_writer.hpp"
#include "app/metadata.hpp"
#include "app/output_lock.hpp"
#include "app/plot_output.hpp"
#include "app/runs_csv.hpp"
#include "app/sweep_grid.hpp"

namespace impactsim {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using Statistics = std::map<std::string, double>;

// The statistics columns of `command` for a scene, in table order.
std::vector<std::string> statistic_columns(const std::string& command, const Scene& scene) {
  std::vector<std::string> c;
  const auto& contacts = scene.system.contacts.contacts();
  if (command == "run") {
    c = {"failed", "t_final", "impacts", "events", "time_steps", "stepped_time", "dependent_closes", "t_rest",
         "final_kinetic_energy", "deepest_penetration"};
    for (const ContactDef& d : contacts) c.push_back(d.name + ".closed");
    for (const OutcomeDef& o : scene.outcomes) c.push_back(o.name);
  } else if (command == "impact") {
    c = {"samples", "accepted", "collide", "failed", "lcp_solves_per_sample"};
    for (const ContactDef& d : contacts)
      for (const char* k : {"rest", "stick", "slide", "lift"}) c.push_back(d.name + "." + k);
  } else {
    c = {"runs", "failed", "mean_impacts", "final_kinetic_energy"};
    for (const ContactDef& d : contacts) c.push_back(d.name + ".closed");
    for (const OutcomeDef& o : scene.outcomes) {
      c.push_back(o.name + ".mean");
      c.push_back(o.name + ".sd");
    }
  }
  return c;
}

// j[key] when it is an object, else an empty object (never a temporary: the loops below iterate it).
const Json& object_member(const Json& j, const char* key) {
  static const Json empty = Json::object();
  const auto it = j.find(key);
  return it != j.end() && it->is_object() ? *it : empty;
}

// j[key] when present, else null.
const Json& member(const Json& j, const char* key) {
  static const Json null;
  const auto it = j.find(key);
  return it != j.end() ? *it : null;
}

void put(Statistics& s, const std::string& key, const Json& value) {
  if (value.is_number()) s[key] = value.get<double>();
}

// The JSON object a file holds; an empty object when it is missing, unreadable or not an object.
Json read_object(const fs::path& path) {
  std::ifstream in(path);
  const Json j = in ? Json::parse(in, nullptr, false) : Json();
  return j.is_object() ? j : Json::object();
}

// The statistics of a point from its summary.json (none when it wrote none). Impact classes are
// fractions of the accepted samples; a batch's closed columns are fractions of its runs.
Statistics point_statistics(const std::string& command, const fs::path& dir) {
  Statistics s;
  const Json j = read_object(dir / "summary.json");
  if (j.empty()) return s;
  if (command == "run") {
    s["failed"] = member(j, "status") == "ok" ? 0 : 1;
    for (const char* k : {"t_final", "impacts", "events", "time_steps", "stepped_time", "dependent_closes", "t_rest",
                          "final_kinetic_energy", "deepest_penetration"})
      put(s, k, member(j, k));
    for (const auto& [name, v] : object_member(j, "closed").items()) put(s, name + ".closed", v);
    for (const auto& [name, v] : object_member(j, "outcomes").items()) put(s, name, v);
  } else if (command == "impact") {
    for (const char* k : {"samples", "accepted", "collide", "failed", "lcp_solves_per_sample"}) put(s, k, member(j, k));
    const Json& accepted_count = member(j, "accepted");
    const double accepted = accepted_count.is_number() ? accepted_count.get<double>() : 0.0;
    for (const auto& [name, c] : object_member(j, "contacts").items())
      for (const auto& [cls, n] : object_member(c, "classes").items())
        if (accepted > 0 && n.is_number()) s[name + "." + cls] = n.get<double>() / accepted;
  } else {
    for (const char* k : {"runs", "failed", "mean_impacts"}) put(s, k, member(j, k));
    put(s, "final_kinetic_energy", member(object_member(j, "final_kinetic_energy"), "mean"));
    for (const auto& [name, v] : object_member(j, "closed_fraction").items()) put(s, name + ".closed", v);
    for (const auto& [name, c] : object_member(j, "columns").items()) {
      put(s, name + ".mean", member(c, "mean"));
      put(s, name + ".sd", member(c, "sd"));
    }
  }
  return s;
}

// A CSV cell: quoted when it holds a comma or a quote (a YAML list value).
std::string cell(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string point_name(size_t k, size_t total) {
  std::string name = std::to_string(k);
  const size_t width = std::to_string(total - 1).size();
  return std::string(width - std::min(width, name.size()), '0') + name;
}

std::string joined(const std::vector<std::string>& words, const char* separator) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : separator) + w;
  return out;
}

// The cells of a sweep.csv line, quoted cells unquoted (the inverse of `cell`).
std::vector<std::string> table_cells(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

// What makes two sweeps the same sweep: the command and its options, the scene's text (SHA-256,
// with the sweep's --set applied), the --set and the grid. DIR/sweep.json records it; --resume
// continues only the same sweep.
Json sweep_description(const SweepOptions& o, const Scene& base, const std::vector<SweepParam>& params, size_t points) {
  Json d = {{"command", o.command}, {"arguments", o.arguments}, {"scene_sha256", scene_content_sha256(base)}, {"set", o.overrides}};
  Json keys = Json::array();
  for (const SweepParam& p : params) keys.push_back({{"key", p.key}, {"values", p.values}});
  d["params"] = keys;
  d["points"] = points;
  return d;
}

// Why DIR/sweep.json is not `description` ("" when it is).
std::string other_sweep(const fs::path& path, const Json& description) {
  const Json old = read_object(path);
  if (old.empty()) return path.string() + " is not a sweep's description";
  for (const auto& [key, value] : description.items())
    if (member(old, key.c_str()) != value)
      return "its " + key + " " + member(old, key.c_str()).dump() + " differs from this sweep's " + value.dump();
  return "";
}

// The points an interrupted sweep finished, with their exit codes: the complete rows of its
// sweep.csv (a row is written when its point ends) whose point's metadata.json is no longer
// "running", except points stopped by a usage or output error, which run again.
std::map<size_t, int> finished_points(const fs::path& dir, size_t params, size_t points) {
  std::map<size_t, int> done;
  if (!fs::exists(dir / "sweep.csv")) return done;
  bool header = true;
  for_each_line(dir / "sweep.csv", [&](const std::string& line, std::uint64_t) {
    if (std::exchange(header, false)) return;
    const std::vector<std::string> cells = table_cells(line);
    if (cells.size() < params + 2 || cells[0].empty() || cells[0].size() > 9 ||
        cells[0].find_first_not_of("0123456789") != std::string::npos)
      return;
    const size_t k = std::stoul(cells[0]);
    int code = 0;
    const std::string& exit = cells[params + 1];
    if (k >= points || std::from_chars(exit.data(), exit.data() + exit.size(), code).ec != std::errc{} ||
        code == kExitUsage || code == kExitOutput)
      return;
    const Json metadata = read_object(dir / "points" / point_name(k, points) / "metadata.json");
    const Json& status = member(metadata, "status");
    if (status.is_string() && status != "running") done[k] = code;
  });
  return done;
}

// The default directory: the scene's output directory (or out/<scene name>) with `-sweep` appended.
std::string default_directory(const Scene& scene) {
  return (scene.output.directory.empty() ? "out/" + scene.name : scene.output.directory) + "-sweep";
}

// A sweep's grid and the union of its points' statistic columns, every point's scene read before
// anything runs (so a bad value stops the sweep with nothing written; a parameter may change the
// contacts, hence the union).
struct SweepGrid {
  std::vector<SweepParam> params;
  std::vector<std::vector<std::string>> points;
  std::vector<std::string> columns;
  // A point's overrides: the sweep's --set, then its parameters.
  std::vector<std::string> overrides(const SweepOptions& o, size_t k) const {
    std::vector<std::string> out = o.overrides;
    out.insert(out.end(), points[k].begin(), points[k].end());
    return out;
  }
};

int read_grid(const SweepOptions& o, SweepGrid& grid) {
  try {
    for (const std::string& text : o.params) grid.params.push_back(parse_sweep_param(text));
    grid.points = sweep_points(grid.params);
  } catch (const std::invalid_argument& e) {
    spdlog::error("{}", e.what());
    return kExitUsage;
  }
  return kExitOk;
}

int read_columns(const SweepOptions& o, SweepGrid& grid) {
  for (size_t k = 0; k < grid.points.size(); ++k) {
    const std::optional<Scene> scene = load_scene_or_report(o.scene, grid.overrides(o, k));
    if (!scene) {
      spdlog::error("sweep point {} of {} ({}): the scene is not valid; nothing was run", k, grid.points.size(),
                    joined(grid.points[k], ", "));
      return kExitScene;
    }
    for (const std::string& c : statistic_columns(o.command, *scene))
      if (std::find(grid.columns.begin(), grid.columns.end(), c) == grid.columns.end()) grid.columns.push_back(c);
  }
  return kExitOk;
}

// The points an interrupted sweep finished, with their exit codes, where --resume may keep them;
// or the exit code of a directory that holds another sweep or a sweep without --resume or --force.
int points_done(const SweepOptions& o, const std::string& dir, const Json& description, const SweepGrid& grid,
                std::map<size_t, int>& done) {
  const fs::path table_path = fs::path(dir) / "sweep.csv", description_path = fs::path(dir) / "sweep.json";
  if (!o.resume) {
    if (fs::exists(table_path) && !o.force) {
      spdlog::error("{} already holds a sweep; --resume completes it, --force overwrites it", table_path.string());
      return kExitUsage;
    }
    return kExitOk;
  }
  if (fs::exists(description_path)) {
    if (const std::string why = other_sweep(description_path, description); !why.empty()) {
      spdlog::error("{}: cannot resume: it holds another sweep: {}", dir, why);
      return kExitUsage;
    }
  } else if (fs::exists(table_path)) {
    spdlog::error("{}: cannot resume: it has sweep.csv but no sweep.json to say which sweep it holds", dir);
    return kExitUsage;
  }
  done = finished_points(dir, grid.params.size(), grid.points.size());
  return kExitOk;
}

// Point k: kept from before, or run now into DIR/points/<k>/; its exit code.
int run_or_keep(const SweepOptions& o, const SweepGrid& grid, const fs::path& point_dir, size_t k,
                const std::map<size_t, int>& done, const SweepPointRunner& run_point) {
  const size_t n = grid.points.size();
  if (const auto kept = done.find(k); kept != done.end()) {
    spdlog::info("sweep: point {}/{}: {}: finished before (exit {}), kept", k + 1, n, joined(grid.points[k], " "),
                 kept->second);
    return kept->second;
  }
  std::error_code ec;
  const bool begun = fs::exists(point_dir / "metadata.json", ec);
  fs::create_directories(point_dir, ec);
  spdlog::info("sweep: point {}/{}: {}", k + 1, n, joined(grid.points[k], " "));
  return ec ? static_cast<int>(kExitOutput) : run_point(point_dir.string(), grid.overrides(o, k), o.resume && begun);
}

// Point k's row of sweep.csv: its parameters, exit code and statistics.
std::string table_row(const SweepOptions& o, const SweepGrid& grid, size_t k, int code, const fs::path& point_dir,
                      int precision) {
  const Statistics stats = point_statistics(o.command, point_dir);
  std::vector<std::string> row{std::to_string(k)};
  for (const std::string& p : grid.points[k]) row.push_back(cell(p.substr(p.find('=') + 1)));
  row.push_back(std::to_string(code));
  for (const std::string& c : grid.columns) {
    const auto it = stats.find(c);
    row.push_back(it == stats.end() ? std::string() : std::string(NumberText(it->second, precision).view()));
  }
  return joined(row, ",");
}

// sweep.csv's header, then sweep.json; false where either cannot be written.
bool start_table(const std::string& dir, const SweepGrid& grid, const Json& description, std::ofstream& table) {
  table.open(fs::path(dir) / "sweep.csv", std::ios::binary | std::ios::trunc);
  std::vector<std::string> header{"point"};
  for (const SweepParam& p : grid.params) header.push_back(cell(p.key));
  header.push_back("exit");
  header.insert(header.end(), grid.columns.begin(), grid.columns.end());
  table << joined(header, ",") << '\n';
  try {
    write_text_file(fs::path(dir) / "sweep.json", description.dump(2) + "\n");
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return false;
  }
  return true;
}

}  // namespace

int sweep_command(const SweepOptions& o, const SweepPointRunner& run_point) {
  SweepGrid grid;
  if (const int code = read_grid(o, grid); code != kExitOk) return code;
  const std::optional<Scene> base = load_scene_or_report(o.scene, o.overrides);
  if (!base) return kExitScene;
  if (const int code = read_columns(o, grid); code != kExitOk) return code;
  if (o.resume && o.force) {
    spdlog::error("sweep: --resume keeps the points a sweep finished, --force runs them again: give one");
    return kExitUsage;
  }
  const std::string dir = prepare_output_directory(o.output_dir.empty() ? default_directory(*base) : o.output_dir, *base);
  if (dir.empty()) return kExitOutput;
  const std::optional<OutputLock> lock = lock_output_or_report(dir);
  if (!lock) return kExitOutput;
  const fs::path table_path = fs::path(dir) / "sweep.csv";
  const Json description = sweep_description(o, *base, grid.params, grid.points.size());
  std::map<size_t, int> done;
  if (const int code = points_done(o, dir, description, grid, done); code != kExitOk) return code;
  std::optional<MetadataFile> metadata =
      open_metadata_or_report(dir, {"sweep", o.command_line, o.law.empty() ? base->law : o.law,
                                    o.seed >= 0 ? static_cast<unsigned long long>(o.seed) : base->seed},
                              *base);
  if (!metadata) return kExitOutput;
  std::ofstream table;
  if (!start_table(dir, grid, description, table)) return kExitOutput;
  const size_t n = grid.points.size();
  spdlog::info("sweep of {}: {} points of {} {}{}", base->name, n, o.command, joined(o.params, " "),
               done.empty() ? "" : fmt::format(" ({} finished before, kept)", done.size()));
  int first_failure = kExitOk;
  long failures = 0;
  for (size_t k = 0; k < n; ++k) {
    const fs::path point_dir = fs::path(dir) / "points" / point_name(k, n);
    const int code = run_or_keep(o, grid, point_dir, k, done, run_point);
    if (code != kExitOk) {
      ++failures;
      if (first_failure == kExitOk) first_failure = code;
      spdlog::warn("sweep: point {} ({}) exited with {}", k, joined(grid.points[k], " "), code);
    }
    table << table_row(o, grid, k, code, point_dir, base->output.precision) << '\n';
    if (!table.flush()) {
      spdlog::error("{}: write failed", table_path.string());
      return kExitOutput;
    }
    // A usage or output error would fail every point alike: stop at the first.
    if (code == kExitUsage || code == kExitOutput) {
      spdlog::error("sweep stopped at point {}: {}", k,
                    code == kExitUsage ? "the command's options are wrong" : "output could not be written");
      return code;
    }
  }
  table.close();
  spdlog::info("wrote {} points to {}", n, table_path.string());
  if (o.plot && !run_plot_tool("sweep", dir)) return kExitOutput;
  if (failures) {
    spdlog::error("{} of {} points did not finish (their rows in {} give their exit codes)", failures, n,
                  table_path.string());
    return first_failure;
  }
  metadata->finish();
  return kExitOk;
}

}  // namespace impactsim
