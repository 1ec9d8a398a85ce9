#pragma once
// Whole runs of the shipped scenes for the event loop's tests: rows, events and statistics, and
// the invariants every run must keep.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/hybrid.hpp"
#include "impact/laws.hpp"
#include "scenes/scene.hpp"

namespace impactsim::testing {

struct SceneRun {
  // A row written just before or after an event (the event loop's event_sample).
  struct EventRow {
    double t, kinetic, potential;
  };
  Scene scene;
  std::vector<Event> events;
  std::vector<double> t;
  std::vector<Eigen::VectorXd> q, v;
  std::vector<double> energy;  // kinetic plus potential per row [J]
  std::vector<EventRow> around;
  RunStats stats;
};

// A run of `scene` under its own law, or under `other` where given.
inline SceneRun simulate(Scene scene, const ImpactLaw* other = nullptr) {
  SceneRun r{std::move(scene), {}, {}, {}, {}, {}, {}, {}};
  const auto own = other ? nullptr : make_law(r.scene.law, r.scene.laws);
  const ImpactLaw& law = other ? *other : *own;
  Rng rng(r.scene.seed);
  RunCallbacks cb;
  cb.sample = [&](const Sample& s) {
    r.t.push_back(s.t);
    r.q.push_back(s.q);
    r.v.push_back(s.v);
    r.energy.push_back(s.kinetic_energy + s.potential_energy);
  };
  cb.event_sample = [&](const Sample& s) { r.around.push_back({s.t, s.kinetic_energy, s.potential_energy}); };
  cb.event = [&](const Event& e) { r.events.push_back(e); };
  r.stats = simulate_hybrid(r.scene.system, law, r.scene.initial, rng, cb);
  return r;
}

inline Scene shipped(const std::string& name) { return load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/" + name + ".yaml"); }

inline SceneRun run(const std::string& name) { return simulate(shipped(name)); }

// Invariants every run must keep: kinetic energy never rises across an impact (e <= 1), and no
// contact sinks deeper than the documented distance tolerance. (A `step` lasts h: the weight
// works on it, see AnInstantWithNoConsistentModesIsSteppedThrough.)
inline void expect_invariants(const SceneRun& r) {
  for (const Event& e : r.events) {
    if (e.kind == EventKind::step) continue;
    EXPECT_LE(e.kinetic_after, e.kinetic_before * (1 + 1e-9) + 1e-12) << e.kind << " at t = " << e.t;
  }
  EXPECT_GE(r.stats.min_phi, -r.scene.system.contact.distance_tolerance);
}

// A shipped scene under another law, its invariants checked.
inline SceneRun run_with_law(const std::string& name, const std::string& law) {
  Scene scene = shipped(name);
  scene.law = law;
  SceneRun r = simulate(std::move(scene));
  expect_invariants(r);
  return r;
}

inline std::vector<Event> of_kind(const SceneRun& r, EventKind kind) {
  std::vector<Event> out;
  for (const Event& e : r.events)
    if (e.kind == kind) out.push_back(e);
  return out;
}

// The names of contacts `ids`, sorted.
inline std::vector<std::string> contact_names(const SceneRun& r, const std::vector<int>& ids) {
  std::vector<std::string> out;
  for (int i : ids) out.push_back(r.scene.system.contacts.contact(i).name);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace impactsim::testing
