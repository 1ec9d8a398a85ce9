#pragma once
// Running a scene under one integrator and keeping its rows, events and statistics, for the
// fixed-step schemes' tests.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/drumwright.hpp"
#include "core/integrators.hpp"
#include "core/hybrid.hpp"
#include "core/time_stepping.hpp"
#include "impact/laws.hpp"
#include "scenes/scene.hpp"

namespace impactsim::testing {

struct SteppedRun {
  std::vector<double> t;
  std::vector<Eigen::VectorXd> q, v;
  std::vector<Event> events;
  RunStats stats;
};

inline RunCallbacks collect(SteppedRun& r) {
  RunCallbacks cb;
  cb.sample = [&](const Sample& s) {
    r.t.push_back(s.t);
    r.q.push_back(s.q);
    r.v.push_back(s.v);
  };
  cb.event = [&](const Event& e) { r.events.push_back(e); };
  return cb;
}

inline SteppedRun run(const Scene& scene, Integrator integrator, const StepSink& steps = {}, const ExternalForce& force = {}) {
  SteppedRun r;
  const RunCallbacks cb = collect(r);
  if (integrator == Integrator::time_stepping) {
    r.stats = simulate_time_stepping(scene.system, scene.initial, cb, steps, force);
  } else if (integrator == Integrator::drumwright) {
    r.stats = simulate_drumwright(scene.system, scene.initial, cb, steps, force);
  } else {
    const auto law = make_law(scene.law, scene.laws);
    Rng rng(scene.seed);
    simulate_hybrid(scene.system, *law, scene.initial, rng, cb);
  }
  return r;
}

// The scene with its energy check off (simulation.energy_check), to look at a scheme's artifact.
inline Scene unchecked(Scene scene) {
  scene.system.simulation.energy_check = false;
  return scene;
}

inline Scene shipped(const std::string& name, const std::vector<SceneOverride>& overrides = {}) {
  return load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/" + name + ".yaml", overrides);
}

// The shipped box on the 15 degree slope with friction coefficient mu.
inline Scene box_on_incline(double mu) {
  return shipped("box_on_incline", {parse_override("materials.mu=" + std::to_string(mu))});
}

// d(t) = 1/2 g (sin a - mu cos a) t^2 while sliding, 0 when mu >= tan a.
inline double slide_distance(double mu, double t) {
  const double a = 15 * std::numbers::pi / 180;
  return std::max(0.0, 0.5 * 9.81 * (std::sin(a) - mu * std::cos(a)) * t * t);
}

// A 0.5 kg slider on a prismatic joint damped by 2 N s/m, no gravity, moving at 1 m/s until
// t = 49.5 s; `integrator` is the simulation section's integrator and step keys. A fixed-step
// scheme's explicit damping is stable on it up to h = 2 m / d = 0.5 s.
inline Scene damped_slider(const std::string& integrator) {
  return load_scene_text(R"(
world: {gravity: [0, 0, 0]}
bodies:
  - {name: slider, joint: {type: prismatic, axis: [0, 0, 1], damping: 2.0}, mass: 0.5, inertia: [1, 1, 1], initial: {sdot: 1.0}}
simulation: {t_end: 49.5, )" + integrator + R"(}
)", "damped_slider.yaml");
}

// The largest |v_0| over a run's rows.
inline double largest_speed(const SteppedRun& r) {
  double largest = 0.0;
  for (const Eigen::VectorXd& v : r.v) largest = std::max(largest, std::abs(v[0]));
  return largest;
}

// simulate() stops the scene before its first step as unstable_step; returns its message.
inline std::string unstable_step_refusal(const Scene& scene) {
  const auto law = make_law(scene.law, scene.laws);
  Rng rng(1);
  try {
    simulate(scene.system, *law, scene.initial, rng, {});
  } catch (const SimulationError& e) {
    EXPECT_EQ(e.reason(), StopReason::unstable_step);
    return e.what();
  }
  ADD_FAILURE() << "the run was not refused";
  return "";
}

inline double travelled(const SteppedRun& r) {
  const Eigen::Vector3d d(r.q.back()(0) - r.q.front()(0), r.q.back()(1) - r.q.front()(1), r.q.back()(2) - r.q.front()(2));
  return d.norm();
}

}  // namespace impactsim::testing
