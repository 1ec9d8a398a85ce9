// Benchmarks of the shape-pair distance query, one per pair type and answer path (closed form, FCL's
// GJK apart, the overlap search), and of the broadphase pass over a pile. Run:
// build/impactsim_bench --benchmark_filter='run_pair|BroadphasePile|PileLoad'
#include <benchmark/benchmark.h>

#include <Eigen/Geometry>

#include "collision/broadphase.hpp"
#include "collision/shape_pair.hpp"
#include "core/kinematics.hpp"
#include "core/system.hpp"
#include "scenes/scene.hpp"
#include "tests/bench/pile_scene.hpp"

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


// The pile of n bodies at its initial poses, with its broadphase: what a pass reads.
struct PileAtRest {
  explicit PileAtRest(int n)
      : scene(load_scene_text(pile_scene(n), "pile")), broadphase(scene.system.contacts), kin(scene.system.model),
        frames(static_cast<size_t>(scene.system.contacts.size())) {
    update_kinematics(scene.system.model, scene.initial.q, kin);
  }
  Scene scene;
  Broadphase broadphase;
  Kinematics kin;
  std::vector<ContactFrame> frames;
};

void count_per_body(benchmark::State& state, int n, int exact) {
  state.counters["exact"] = exact;
  state.counters["per_body"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                                               benchmark::Counter::kInvert);
}

// One broadphase pass, as each event and each guard reading at the step's points makes: a bound for
// every group of contacts, exact frames for those within the margin. Its time per body should stay
// flat as the pile grows: the pairs grow as n^2, the ones near each body do not.
void BM_BroadphasePile(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  PileAtRest pile(n);
  const System& sys = pile.scene.system;
  int exact = 0;
  for (auto _ : state) {
    exact = pile.broadphase.update(sys.contacts, sys.contact.broadphase_margin, pile.kin.R, pile.kin.p, pile.frames);
    benchmark::DoNotOptimize(pile.frames.data());
  }
  state.counters["contacts"] = sys.contacts.size();
  state.counters["groups"] = pile.broadphase.groups();
  count_per_body(state, n, exact);
}
BENCHMARK(BM_BroadphasePile)->Arg(25)->Arg(50)->Arg(100)->Arg(200)->Unit(benchmark::kMicrosecond);

// The event loop's pass over the same pile: its near set (Broadphase::select_near, each body's
// reach the default broadphase_horizon) checked to hold at the poses, then updated. Its groups and
// contacts, and so its time, grow with the bodies, not with their pairs.
void BM_BroadphasePileNear(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  PileAtRest pile(n);
  const System& sys = pile.scene.system;
  const Kinematics& kin = pile.kin;
  NearSet near;
  const std::vector<double> reach(sys.model.bodies.size(), sys.contact.broadphase_horizon);
  pile.broadphase.select_near(sys.contacts, sys.contact.broadphase_margin, reach, kin.R, kin.p, false, near);
  int exact = 0;
  for (auto _ : state) {
    if (!pile.broadphase.holds(near, kin.R, kin.p, 1.0)) state.SkipWithError("the near set does not hold where it was selected");
    exact = pile.broadphase.update(sys.contacts, sys.contact.broadphase_margin, kin.R, kin.p, near, pile.frames);
    benchmark::DoNotOptimize(pile.frames.data());
  }
  state.counters["near_contacts"] = static_cast<double>(near.contacts.size());
  state.counters["near_groups"] = static_cast<double>(near.groups.size());
  count_per_body(state, n, exact);
}
BENCHMARK(BM_BroadphasePileNear)->Arg(25)->Arg(50)->Arg(100)->Arg(200)->Unit(benchmark::kMicrosecond);

// What a run of that pile pays once, before its first step and after its last: the scene read and
// checked (the mass matrix's conditioning, no contact starting deep) and the closed contacts that
// summary.json lists. Each should grow with the bodies, not with the contacts times nv.
void BM_PileLoad(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::string text = pile_scene(n);
  for (auto _ : state) {
    const Scene scene = load_scene_text(text, "pile");
    const std::vector<bool> closed =
        closed_contacts(scene.system, scene.initial.q, Eigen::VectorXd::Zero(scene.system.model.nv));
    benchmark::DoNotOptimize(closed);
  }
}
BENCHMARK(BM_PileLoad)->Arg(25)->Arg(50)->Arg(100)->Arg(200)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace impactsim
