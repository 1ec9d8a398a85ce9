// Benchmarks of the shape-pair distance query, one per pair type and answer path (closed form, FCL's
// GJK apart, the overlap search). Run: build/impactsim_bench --benchmark_filter=ShapePair
#include <benchmark/benchmark.h>

#include <Eigen/Geometry>

#include "collision/shape_pair.hpp"

namespace impactsim {
namespace {

Shape solid(ShapeType type) {
  Shape s;
  s.type = type;
  s.size = Vec3(0.6, 1.0, 0.4);
  s.radius = 0.35;
  s.length = 0.8;
  s.normal = Vec3::UnitZ();
  return s;
}

// A on B's top, tilted: `height` is A's origin above B's [m]; 2 m is apart for every pair, 0.5 m
// overlapping.
void run_pair(benchmark::State& state, ShapeType ta, ShapeType tb, double height) {
  const Shape a = solid(ta), b = solid(tb);
  Pose pa, pb;
  pa.R = Eigen::AngleAxisd(0.4, Vec3(1, 2, 0.5).normalized()).toRotationMatrix();
  pa.p = Vec3(0.1, -0.05, height);
  double sum = 0;
  for (auto _ : state) {
    const PairDistance d = shape_pair_distance(a, pa, b, pb);
    sum += d.distance;
    benchmark::DoNotOptimize(sum);
  }
}

using T = ShapeType;
BENCHMARK_CAPTURE(run_pair, BoxHalfspace, T::box, T::halfspace, 0.5);
BENCHMARK_CAPTURE(run_pair, SphereBox, T::sphere, T::box, 2.0);
BENCHMARK_CAPTURE(run_pair, CapsuleCapsule, T::capsule, T::capsule, 2.0);
BENCHMARK_CAPTURE(run_pair, BoxBoxApart, T::box, T::box, 2.0);
BENCHMARK_CAPTURE(run_pair, BoxBoxOverlapping, T::box, T::box, 0.5);
BENCHMARK_CAPTURE(run_pair, BoxCylinderApartFcl, T::box, T::cylinder, 2.0);
BENCHMARK_CAPTURE(run_pair, BoxCapsuleApartFcl, T::box, T::capsule, 2.0);
BENCHMARK_CAPTURE(run_pair, CylinderCylinderApartFcl, T::cylinder, T::cylinder, 2.0);
BENCHMARK_CAPTURE(run_pair, BoxCylinderOverlappingSearch, T::box, T::cylinder, 0.5);

}  // namespace
}  // namespace impactsim
