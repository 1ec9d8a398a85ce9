// Benchmarks of the impact algebra. Run: build/impactsim_bench
#include <benchmark/benchmark.h>

#include <cmath>

#include "app/sample_seed.hpp"
#include "impact/anitescu_potra.hpp"
#include "impact/routh.hpp"
#include "tests/impact/contact_spaces.hpp"

namespace impactsim {
namespace {

using testing::rocking_block;

const Eigen::Vector3d kDrop(0, -std::sqrt(2 * 9.81 * 0.01), 0);

// The 8-variable LCP of a planar two-contact impact (2 contacts x (normal + 2 friction + slack)).
void BM_LemkePlanarTwoContactLcp(benchmark::State& state) {
  const ContactSpace c = rocking_block();
  const CoulombLcp lcp = build_anitescu_potra_lcp(c, anitescu_potra_operator(c), kDrop);
  for (auto _ : state) benchmark::DoNotOptimize(solve_lemke(lcp.W, lcp.w));
}
BENCHMARK(BM_LemkePlanarTwoContactLcp);

// The whole law: build W from M and the Jacobians, solve, map back to v+.
void BM_AnitescuPotraRockingBlock(benchmark::State& state) {
  const ContactSpace c = rocking_block();
  const AnitescuPotraLaw law;
  Rng rng(1);
  for (auto _ : state) benchmark::DoNotOptimize(law.resolve(c, kDrop, rng));
}
BENCHMARK(BM_AnitescuPotraRockingBlock);

// One Routh sample of the rocking block with the paper's h = 0.3 N s (Table 3: 2.1 ms in MATLAB),
// seeding its own generator as `impactsim impact` does.
void BM_RouthRockingBlockSample(benchmark::State& state) {
  const ContactSpace c = rocking_block();
  RouthSettings settings;
  settings.h = 0.3;
  settings.max_steps = 10;
  const RouthImpact impact(c, kDrop, settings);
  std::uint64_t i = 0;
  for (auto _ : state) {
    Rng rng(sample_seed(1, i++));
    benchmark::DoNotOptimize(impact.draw(rng));
  }
  state.counters["samples_per_second"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RouthRockingBlockSample);

}  // namespace
}  // namespace impactsim


