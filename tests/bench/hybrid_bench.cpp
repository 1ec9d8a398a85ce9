// Benchmarks of whole event-driven runs. Run: build/impactsim_bench
#include <benchmark/benchmark.h>

#include <cmath>

#include "core/hybrid.hpp"
#include "impact/impact_law.hpp"
#include "impact/laws.hpp"
#include "scenes/scene.hpp"
#include "tests/bench/pile_scene.hpp"

namespace impactsim {
namespace {

// The bouncing ball (e = 0.9, dropped from 1 m) until just after its 40th impact, every event time
// located to 1e-13 s; no output rows.
void BM_BouncingBallFirst40Impacts(benchmark::State& state) {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/bouncing_ball.yaml");
  const double g = 9.81, e = 0.9, v1 = std::sqrt(2 * g);
  double t = std::sqrt(2 / g), v = v1;
  for (int k = 1; k < 40; ++k, v *= e) t += 2 * e * v / g;
  scene.system.simulation.t_end = t + 1e-3;
  scene.system.simulation.output_interval = scene.system.simulation.t_end;
  const auto law = make_law(scene.law, scene.laws);
  long impacts = 0;
  for (auto _ : state) {
    Rng rng(0);
    RunCallbacks cb;
    cb.event = [&](const Event&) { ++impacts; };
    simulate_hybrid(scene.system, *law, scene.initial, rng, cb);
  }
  state.counters["impacts"] = benchmark::Counter(static_cast<double>(impacts) / state.iterations());
}
BENCHMARK(BM_BouncingBallFirst40Impacts)->Unit(benchmark::kMicrosecond);

// Full runs of the rocking block dropped flat (scenes/rocking_block.yaml: the Routh law, h = 0.3,
// N = 10, and the Zeno rule), run i drawing from seed (0, i) as batch run i would, each run ended by
// the rest detector; no output rows. Threads run disjoint runs, as `impactsim batch --threads`.
// runs_per_s is the throughput of all threads together.
void BM_RockingBlockFullRuns(benchmark::State& state) {
  static const Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block.yaml");
  System system = scene.system;
  system.simulation.output_interval = system.simulation.t_end;
  const auto law = make_law(scene.law, scene.laws);
  long run = state.thread_index(), impacts = 0;
  for (auto _ : state) {
    Rng rng(0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(run + 1));
    run += state.threads();
    RunCallbacks cb;
    cb.event = [&](const Event& e) { impacts += e.kind == EventKind::impact || e.kind == EventKind::zeno; };
    simulate_hybrid(system, *law, scene.initial, rng, cb);
  }
  state.counters["runs_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["impacts_per_run"] = benchmark::Counter(static_cast<double>(impacts) / state.iterations(),
                                                         benchmark::Counter::kAvgThreads);
}
BENCHMARK(BM_RockingBlockFullRuns)->Unit(benchmark::kMicrosecond)->Threads(1)->Threads(2)->UseRealTime();

// scenes/sphere_row.yaml (100 balls, 201 contacts, nv = 606) run to 1 s under two laws: the cost
// of a long row of sustained contacts. One iteration each: these take seconds.
void BM_SphereRow(benchmark::State& state, const char* law_name) {
  static const Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/sphere_row.yaml");
  System system = scene.system;
  system.simulation.output_interval = system.simulation.t_end;
  const auto law = make_law(law_name, scene.laws);
  for (auto _ : state) {
    Rng rng(0);
    simulate_hybrid(system, *law, scene.initial, rng, {});
  }
}
BENCHMARK_CAPTURE(BM_SphereRow, anitescu_potra, "anitescu-potra")->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SphereRow, sequential, "sequential")->Unit(benchmark::kSecond)->Iterations(1);

// Runs `scene` to its t_end once per iteration, writing no rows.
void run_to_end(benchmark::State& state, const Scene& scene) {
  System system = scene.system;
  system.simulation.output_interval = system.simulation.t_end;
  const auto law = make_law(scene.law, scene.laws);
  for (auto _ : state) {
    Rng rng(0);
    simulate_hybrid(system, *law, scene.initial, rng, {});
  }
}

// scenes/sphere_pile.yaml (10 spheres into a bin, 95 automatic contacts, nv = 60) run to 1 s: the
// cost of many short-lived contacts, an event every few milliseconds.
void BM_SpherePile(benchmark::State& state) {
  static const Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/sphere_pile.yaml");
  run_to_end(state, scene);
}
BENCHMARK(BM_SpherePile)->Unit(benchmark::kSecond)->Iterations(1);

// 50 frictionless spheres into the same bin (tests/scenes/contact/frictionless_pile_50.yaml,
// `tools/make_pile_scene.py 50 0`: 1,475 contacts, nv = 300) run to 1 s: some 4,160 events of a
// pile settling to rest. One iteration: it takes seconds.
void BM_SpherePile50(benchmark::State& state) {
  static const Scene scene =
      load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/tests/scenes/contact/frictionless_pile_50.yaml");
  run_to_end(state, scene);
}
BENCHMARK(BM_SpherePile50)->Unit(benchmark::kSecond)->Iterations(1);

// The same pile with friction (materials.mu = 0.3): sticking, sliding and slips from rest of
// contacts that start to slide together (core/slip_start.hpp).
void BM_FrictionalSpherePile(benchmark::State& state) {
  static const Scene scene =
      load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/sphere_pile.yaml", {parse_override("materials.mu=0.3")});
  run_to_end(state, scene);
}
BENCHMARK(BM_FrictionalSpherePile)->Unit(benchmark::kSecond)->Iterations(1);

// A pile of n boxes and spheres (tilted_pile_scene, layers of 25, `collide: all`) run to t = 0.1 s:
// the first layer lands on the ground (the same 529 events for every n) while the layers above
// fall without touching. What those falling bodies add to each event is what the near set keeps
// linear in the bodies while their pairs grow as n^2 (98,650 contacts for n = 200).
// horizon:0 follows every contact (broadphase_horizon 0), horizon:1 the default near set;
// islands:1 runs groups of bodies on their own clocks (core/island_clocks.hpp).
void BM_BoxPileLanding(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Scene scene = load_scene_text(tilted_pile_scene(n), "pile");
  System& system = scene.system;
  system.simulation.output_interval = system.simulation.t_end;
  if (state.range(1) == 0) system.contact.broadphase_horizon = 0.0;
  system.simulation.island_clocks = state.range(2) == 1 ? IslandClocks::on : IslandClocks::off;
  const auto law = make_law(scene.law, scene.laws);
  long events = 0;
  for (auto _ : state) {
    Rng rng(0);
    events = simulate_hybrid(system, *law, scene.initial, rng, {}).events;
  }
  state.counters["events"] = static_cast<double>(events);
  state.counters["contacts"] = system.contacts.size();
  state.counters["per_event"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsIterationInvariantRate |
                                                                                    benchmark::Counter::kInvert);
}
BENCHMARK(BM_BoxPileLanding)
    ->ArgNames({"bodies", "horizon", "islands"})
    ->ArgsProduct({{25, 50, 100, 200}, {0, 1}, {0}})
    ->ArgsProduct({{25, 50, 100, 200}, {1}, {1}})
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

// One layer of n boxes and spheres landing and settling on the ground of a bin grown to fit them
// (spread_pile_scene), run to t = 1 s: the same work per body at every n, so wall seconds (here
// seconds per simulated second) growing faster than n is cost the scene's size adds to each event.
// islands 1: on their own clocks (core/island_clocks.hpp).
void BM_SettlingPile(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  Scene scene = load_scene_text(spread_pile_scene(n), "spread_pile");
  System& system = scene.system;
  system.simulation.output_interval = system.simulation.t_end;
  system.simulation.island_clocks = state.range(1) == 1 ? IslandClocks::on : IslandClocks::off;
  const auto law = make_law(scene.law, scene.laws);
  RunStats result;
  for (auto _ : state) {
    Rng rng(0);
    result = simulate_hybrid(system, *law, scene.initial, rng, {});
  }
  state.counters["events"] = static_cast<double>(result.events);
  state.counters["steps"] = static_cast<double>(result.steps);
  state.counters["per_body"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                                              benchmark::Counter::kInvert);
  state.counters["per_event"] = benchmark::Counter(static_cast<double>(result.events),
                                                   benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_SettlingPile)
    ->ArgNames({"bodies", "islands"})
    ->ArgsProduct({{25, 50, 100, 200}, {0, 1}})
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

// The impacts of a shipped scene's run, as its law received them (contact space and v-).
struct RecordedImpacts : ImpactLaw {
  explicit RecordedImpacts(std::unique_ptr<ImpactLaw> law) : inner(std::move(law)) {}
  std::string_view name() const override { return inner->name(); }
  std::unique_ptr<PreparedImpact> prepare(const ContactSpace& c, const Eigen::VectorXd& v) const override {
    seen.emplace_back(c, v);
    return inner->prepare(c, v);
  }
  ImpactResult resolve(const ContactSpace& c, const Eigen::VectorXd& v, Rng& rng) const override {
    seen.emplace_back(c, v);
    return inner->resolve(c, v, rng);
  }
  std::unique_ptr<ImpactLaw> inner;
  mutable std::vector<std::pair<ContactSpace, Eigen::VectorXd>> seen;
};

std::vector<std::pair<ContactSpace, Eigen::VectorXd>> impacts_of(const std::string& name) {
  const Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/" + name + ".yaml");
  RecordedImpacts law(make_law(scene.law, scene.laws));
  Rng rng(0);
  simulate_hybrid(scene.system, law, scene.initial, rng, RunCallbacks{});
  return law.seen;
}

// Every impact of cube_toss's and box_stack's runs resolved again by the Anitescu-Potra law, in the
// circular cone (the default) and in the scenes' polygons (8 and 4 directions): time per impact.
void BM_ImpactsInTheCone(benchmark::State& state, const std::string& name, bool circular) {
  auto impacts = impacts_of(name);
  for (auto& [space, v] : impacts) space.circular_cone = circular;
  const auto law = make_law("anitescu-potra");
  Rng rng(0);
  for (auto _ : state)
    for (const auto& [space, v] : impacts) benchmark::DoNotOptimize(law->resolve(space, v, rng));
  state.counters["impacts"] = static_cast<double>(impacts.size());
  state.counters["per_impact"] = benchmark::Counter(static_cast<double>(impacts.size()),
                                                    benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK_CAPTURE(BM_ImpactsInTheCone, cube_toss_circular, "cube_toss", true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ImpactsInTheCone, cube_toss_polygon, "cube_toss", false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ImpactsInTheCone, box_stack_circular, "box_stack", true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ImpactsInTheCone, box_stack_polygon, "box_stack", false)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace impactsim

BENCHMARK_MAIN();
