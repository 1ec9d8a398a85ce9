// Benchmarks of the impact algebra. Run: build/impactsim_bench
#include <benchmark/benchmark.h>

#include <cmath>

#include "impact/anitescu_potra.hpp"

namespace impactsim {
namespace {

ContactSpace rocking_block() {
  ContactSpace c;
  c.M = Eigen::Vector3d(1, 1, 5.0 / 12).asDiagonal();
  c.J_n.resize(2, 3);
  c.J_n << 0, 1, -0.5, 0, 1, 0.5;
  c.J_t.resize(2, 3);
  c.J_t << 1, 0, 1, 1, 0, 1;
  c.mu = Eigen::Vector2d(1, 1);
  c.e = Eigen::Vector2d::Zero();
  return c;
}

const Eigen::Vector3d kDrop(0, -std::sqrt(2 * 9.81 * 0.01), 0);

// The 8-variable LCP of a planar two-contact impact (2 contacts x (normal + 2 friction + slack)).
void BM_LemkePlanarTwoContactLcp(benchmark::State& state) {
  const AnitescuPotraLcp lcp = build_anitescu_potra_lcp(rocking_block(), kDrop);
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

}  // namespace
}  // namespace impactsim


