#include "app/run_files.hpp"

#include <chrono>
#include <filesystem>

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

// One events.csv row: contacts and their impulses as ';'-separated lists in the same order.
std::vector<std::string> event_cells(const Event& e, const Scene& scene, int precision) {
  auto number = [precision](double x) { return std::string(NumberText(x, precision).view()); };
  std::string names, impulses, ordering, tangential;
  for (size_t k = 0; k < e.contacts.size(); ++k) names += (k ? ";" : "") + scene.system.contacts.contact(e.contacts[k]).name;
  for (size_t k = 0; k < e.impulse_n.size(); ++k) (impulses += k ? ";" : "") += NumberText(e.impulse_n[k], precision).view();
  for (size_t k = 0; k < e.impulse_t.size(); ++k) (tangential += k ? ";" : "") += NumberText(e.impulse_t[k], precision).view();
  for (size_t k = 0; k < e.ordering.size(); ++k) ordering += (k ? ";" : "") + scene.system.contacts.contact(e.ordering[k]).name;
  return {number(e.t), std::string(event_kind_name(e.kind)), names, e.law, number(e.kinetic_before), number(e.kinetic_after),
          impulses, ordering, tangential, number(e.duration)};
}

std::string in_dir(const std::string& dir, const char* file) { return (std::filesystem::path(dir) / file).string(); }

}  // namespace

RunFiles::RunFiles(const std::string& dir, const Scene& scene)
    : scene_(scene),
      trajectory_(in_dir(dir, "trajectory.csv"), trajectory_columns(scene.system.model), scene.output.precision),
      events_(in_dir(dir, "events.csv"),
              {"t", "kind", "contacts", "law", "kinetic_energy_before", "kinetic_energy_after", "impulse_n", "ordering",
               "impulse_t", "duration"},
              scene.output.precision) {}

RunCallbacks RunFiles::callbacks(std::function<void(const Event&)> extra) {
  RunCallbacks cb;
  cb.sample = [this](const Sample& s) { trajectory_.row(s.t, s.q, s.v, {s.kinetic_energy, s.potential_energy}); };
  cb.event_sample = cb.sample;
  cb.event = [this, extra](const Event& e) {
    events_.text_row(event_cells(e, scene_, scene_.output.precision));
    // At an event, and at most every 0.2 s of wall time: a write per event costs more than the
    // event itself in a run of many quick impacts (the bouncing ball). A run that stops flushes
    // at once (RunFiles::flush); what a killed process loses is its last 0.2 s.
    const auto now = std::chrono::steady_clock::now();
    if (now - last_flush_ >= std::chrono::milliseconds(200)) {
      flush();
      last_flush_ = now;
    }
    if (extra) extra(e);
  };
  return cb;
}

}  // namespace impactsim
