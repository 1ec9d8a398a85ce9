#include "app/metadata.hpp"

#include <unistd.h>

#include <array>
#include <ctime>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "app/csv_writer.hpp"
#include "app/version.hpp"
#include "core/integrators.hpp"
#include "impact/laws.hpp"

namespace impactsim {
namespace {

using Json = nlohmann::ordered_json;

std::string utc_text(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

std::string host_name() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0) return "unknown";
  return name.data();
}

// One setting's value as JSON: contacts by name (a start past the contacts, null).
Json setting_json(const SettingValue& value, const ContactModel& contacts) {
  if (const auto* x = std::get_if<double>(&value)) return *x;
  if (const auto* x = std::get_if<bool>(&value)) return *x;
  if (const auto* x = std::get_if<std::string>(&value)) return *x;
  if (const auto* list = std::get_if<std::vector<int>>(&value)) {
    Json names = Json::array();
    for (int i : *list) names.push_back(contacts.contact(i).name);
    return names;
  }
  return std::get<long>(value);
}

// Settings keyed as their section names them, with the fixed ones (Routh's tolerance) too.
Json settings_json(const std::vector<SettingSpec>& specs, const Settings& settings, const ContactModel& contacts) {
  Json out = Json::object();
  for (size_t i = 0; i < specs.size(); ++i) {
    const SettingValue& value = settings.values()[i].second;
    if (specs[i].kind != SettingKind::contact) {
      out[specs[i].key] = setting_json(value, contacts);
      continue;
    }
    const long contact = std::get<long>(value);
    out[specs[i].key] = contact < contacts.size() ? Json(contacts.contact(static_cast<int>(contact)).name) : Json(nullptr);
  }
  return out;
}

Json law_settings(const std::string& law, const LawSettings& s, const ContactModel& contacts) {
  const LawDescriptor* d = find_law(law);
  return d ? settings_json(d->settings, s.of(law), contacts) : Json::object();
}

Json settings(const Metadata& m, const Scene& scene) {
  const System& sys = scene.system;
  const SimulationSettings& sim = sys.simulation;
  const ContactSettings& c = sys.contact;
  Json out;
  out["law"] = m.law;
  out["law_settings"] = law_settings(m.law, scene.laws, sys.contacts);
  const IntegratorDescriptor& integrator = integrator_descriptor(sys.integrator);
  out["integrator"] = integrator.name;
  if (!integrator.section.empty())
    out[integrator.section] = settings_json(integrator.settings, integrator.values(sys), sys.contacts);
  if (sys.integrator != Integrator::event_driven) out["energy_check"] = sim.energy_check;
  out["t_end"] = sim.t_end;
  out["output_interval"] = sim.output_interval;
  out["rtol"] = sim.ode.rtol;
  out["atol"] = sim.ode.atol;
  out["max_step"] = sim.ode.max_step;
  out["max_steps"] = sim.max_steps;
  out["stall_window"] = sim.stall_window;
  if (sim.island_clocks != IslandClocks::automatic) out["island_clocks"] = sim.island_clocks == IslandClocks::on;
  out["contact"] = {{"distance_tolerance", c.distance_tolerance}, {"velocity_tolerance", c.velocity_tolerance},
                    {"baumgarte", c.baumgarte},                   {"v_zeno", c.v_zeno},
                    {"detect_rest", c.detect_rest},               {"sleep", c.sleep},
                    {"max_events", c.max_events},
                    {"broadphase_margin", c.broadphase_margin},   {"broadphase_horizon", c.broadphase_horizon},
                    {"friction_directions", c.friction_directions},
                    {"friction_cone", c.circular_cone ? "circular" : "polygon"}, {"painleve_step", c.painleve_step},
                    {"painleve_step_max", c.painleve_step_max},
                    {"slow_slip_speed", c.slow_slip_speed}};
  out["seed"] = m.seed;
  return out;
}

// This build: version and git commit.
Json build_json() { return {{"version", impactsim_version()}, {"commit", impactsim_commit()}}; }

// The scene as run: path as given, name, SHA-256 of its text, the --set overrides, its URDF and
// mesh files.
Json scene_json(const Scene& scene) {
  Json overrides = Json::array();
  for (const SceneOverride& o : scene.overrides) overrides.push_back(o.text());
  Json out = {{"path", scene.source}, {"name", scene.name}, {"sha256", scene.text_sha256}, {"overrides", overrides}};
  if (!scene.robot.urdf.empty()) out["robot"] = {{"urdf", scene.robot.urdf}, {"sha256", scene.robot.sha256}};
  if (!scene.meshes.empty()) {
    Json meshes = Json::array();
    for (const MeshSource& m : scene.meshes) meshes.push_back({{"path", m.path}, {"sha256", m.sha256}});
    out["meshes"] = meshes;
  }
  return out;
}

}  // namespace

std::string describe_law_settings(const std::string& law, const LawSettings& settings, const ContactModel& contacts) {
  std::string out;
  const Json parameters = law_settings(law, settings, contacts);
  for (const auto& [key, value] : parameters.items())
    out += (out.empty() ? "" : ", ") + key + " " + (value.is_string() ? value.get<std::string>() : value.dump());
  return out;
}

std::string command_line_text(int argc, const char* const* argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    const std::string word = argv[i];
    if (i) out += ' ';
    if (!word.empty() && word.find_first_of(" \t'\"\\$") == std::string::npos) {
      out += word;
      continue;
    }
    out += '\'';
    for (char ch : word) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    out += '\'';
  }
  return out;
}

std::string provenance_json(const Metadata& m, const Scene& scene) {
  Json j;
  j["impactsim"] = build_json();
  j["command"] = m.command;
  j["scene"] = scene_json(scene);
  j["settings"] = settings(m, scene);
  return j.dump(2);
}

std::string merge_metadata_json(const std::string& command_line, const std::vector<std::string>& slices,
                                const std::string& provenance, std::chrono::system_clock::time_point started,
                                double wall_seconds) {
  const Json batch = provenance.empty() ? Json::object() : Json::parse(provenance, nullptr, false);
  Json j;
  j["impactsim"] = build_json();
  j["command"] = "merge";
  j["command_line"] = command_line;
  j["slices"] = slices;
  for (const char* key : {"scene", "settings"})
    if (batch.is_object() && batch.contains(key)) j[key] = batch[key];
  if (batch.is_object() && batch.contains("impactsim")) j["batch_impactsim"] = batch["impactsim"];
  j["started"] = utc_text(started);
  j["wall_seconds"] = wall_seconds;
  j["host"] = host_name();
  j["status"] = "ok";
  return j.dump(2) + "\n";
}

std::string metadata_json(const Metadata& m, const Scene& scene, const std::string& status, double wall_seconds) {
  Json j;
  j["impactsim"] = build_json();
  j["command"] = m.command;
  j["command_line"] = m.command_line;
  j["scene"] = scene_json(scene);
  j["settings"] = settings(m, scene);
  j["started"] = utc_text(m.started);
  j["wall_seconds"] = wall_seconds >= 0 ? Json(wall_seconds) : Json(nullptr);
  j["host"] = host_name();
  j["status"] = status;
  return j.dump(2) + "\n";
}

void write_metadata(const std::filesystem::path& dir, const Metadata& metadata, const Scene& scene,
                    const std::string& status, double wall_seconds) {
  write_text_file(dir / "metadata.json", metadata_json(metadata, scene, status, wall_seconds));
}

MetadataFile::MetadataFile(std::filesystem::path dir, Metadata metadata, const Scene& scene)
    : dir_(std::move(dir)), metadata_(std::move(metadata)), scene_(scene) {
  write_metadata(dir_, metadata_, scene_, "running");
}

MetadataFile::~MetadataFile() {
  if (!finished_) write("failed");
}

void MetadataFile::finish(const std::string& status) {
  finished_ = true;
  write(status);
}

void MetadataFile::write(const std::string& status) noexcept {
  try {
    write_metadata(dir_, metadata_, scene_, status,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  } catch (const std::exception& e) {
    spdlog::warn("{}", e.what());
  }
}

std::optional<MetadataFile> open_metadata_or_report(const std::filesystem::path& dir, Metadata metadata,
                                                    const Scene& scene) {
  try {
    return std::optional<MetadataFile>(std::in_place, dir, std::move(metadata), scene);
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return std::nullopt;
  }
}

}  // namespace impactsim
