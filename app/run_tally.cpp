#include "app/run_tally.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/dynamics.hpp"
#include "core/system.hpp"

namespace impactsim {

const char* const RunTally::kDependentCloseReadme =
    "(docs/validation.md, \"Known limitations\")";

std::string RunTally::dependent_close_meaning(const std::string& file) {
  return "held nearly dependent contacts and removed energy that their contacts' slow velocities do not carry "
         "(dependent_closes in " + file + ")";
}

RunTally::RunTally(const Scene& scene, const State& initial)
    : scene_(scene),
      contact_impacts_(scene.system.contacts.size(), 0),
      contact_lifts_(scene.system.contacts.size(), 0),
      first_lift_(scene.system.contacts.size(), -1),
      q_(initial.q),
      v_(initial.v) {}

void RunTally::event(const Event& e) {
  ++events_;
  if (e.kind == EventKind::rest) t_rest_ = e.t;
  if (e.kind == EventKind::step) ++time_steps_, stepped_time_ += e.duration;
  if (closes_dependent_rows(e) && dependent_closes_++ == 0) first_dependent_close_ = e;
  if (!is_impact(e.kind)) return;
  ++impacts_;
  for (size_t a = 0; a < e.contacts.size(); ++a) {
    const int i = e.contacts[a];
    ++contact_impacts_[i];
    // A contact lifts when it leaves the impact separating faster than the tolerance that counts
    // speeds as zero (the same test that opens a contact after an impact).
    const bool lifted = a < e.normal_velocity_after.size() &&
                        e.normal_velocity_after[a] > scene_.system.contact.velocity_tolerance;
    contact_lifts_[i] += lifted;
    if (first_lift_[i] < 0) first_lift_[i] = lifted;
  }
}

void RunTally::sample(const Sample& s) {
  t_final_ = s.t;
  q_ = s.q;
  v_ = s.v;
}

void RunTally::finished(const RunStats& stats) {
  deepest_penetration_ = scene_.system.contacts.size() > 0 ? std::max(0.0, -stats.min_phi) : 0.0;
}

double RunTally::kinetic_energy() const { return energies(scene_.system.model, q_, v_).first; }

std::vector<bool> RunTally::closed() const { return closed_contacts(scene_.system, q_, v_); }

std::vector<double> RunTally::outcome_values(const std::vector<bool>& closed_now) const {
  std::vector<double> out;
  for (const OutcomeDef& o : scene_.outcomes) {
    switch (o.kind) {
      case OutcomeDef::Kind::final_value: out.push_back(o.scale * (o.velocity ? v_[o.index] : q_[o.index])); break;
      case OutcomeDef::Kind::closed: out.push_back(closed_now[o.index] ? 1 : 0); break;
      case OutcomeDef::Kind::impacts: out.push_back(static_cast<double>(contact_impacts_[o.index])); break;
      case OutcomeDef::Kind::lifts: out.push_back(static_cast<double>(contact_lifts_[o.index])); break;
      case OutcomeDef::Kind::first_lift: out.push_back(first_lift_[o.index] > 0 ? 1 : 0); break;
    }
  }
  return out;
}

namespace {

// {contact name: 1 closed, 0 not} in contact order. An ordered_json object finds a key by a linear
// search, so filling it with operator[] takes time quadratic in the contacts (tens of thousands in
// a pile); names are unique (the scene loader sees to it), so each is appended as it comes.
nlohmann::ordered_json closed_object(const ContactModel& contacts, const std::vector<bool>& flags) {
  nlohmann::ordered_json closed = nlohmann::ordered_json::object();
  auto& members = closed.get_ref<nlohmann::ordered_json::object_t&>();
  members.reserve(flags.size());
  for (size_t i = 0; i < flags.size(); ++i) members.emplace_back(contacts.contacts()[i].name, flags[i] ? 1 : 0);
  return closed;
}

}  // namespace

std::string run_summary_json(const Scene& scene, const RunTally& tally, const std::string& reason,
                             const std::string& message) {
  using Json = nlohmann::ordered_json;
  Json j;
  j["status"] = reason.empty() ? "ok" : "failed";
  if (!reason.empty()) {
    j["reason"] = reason;
    j["message"] = message;
  }
  j["t_final"] = tally.t_final();
  j["impacts"] = tally.impacts();
  j["events"] = tally.events();
  j["time_steps"] = tally.time_steps();
  j["stepped_time"] = tally.stepped_time();
  j["dependent_closes"] = tally.dependent_closes();
  j["t_rest"] = tally.t_rest() >= 0 ? Json(tally.t_rest()) : Json(nullptr);
  j["final_kinetic_energy"] = tally.kinetic_energy();
  const double depth = tally.deepest_penetration();
  j["deepest_penetration"] = std::isnan(depth) ? Json(nullptr) : Json(depth);
  const std::vector<bool> flags = tally.closed();
  j["closed"] = closed_object(scene.system.contacts, flags);
  Json outcomes = Json::object();
  const std::vector<double> values = tally.outcome_values(flags);
  for (size_t k = 0; k < values.size(); ++k)
    outcomes[scene.outcomes[k].name] = scene.outcomes[k].whole() ? Json(static_cast<long>(values[k])) : Json(values[k]);
  j["outcomes"] = outcomes;
  return j.dump(2) + "\n";
}

}  // namespace impactsim
