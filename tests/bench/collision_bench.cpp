// Benchmarks of the shape-pair distance query, one per pair type and answer path (closed form, FCL's
// GJK apart, the overlap search), and of the broadphase pass over a pile. Run:
// build/impactsim_bench --benchmark_filter='run_pair|BroadphasePile|PileLoad'
#include <benchmark/benchmark.h>

#include <Eigen/Geometry>
#include <sstream>

#include "collision/broadphase.hpp"
#include "collision/shape_pair.hpp"
#include "core/kinematics.hpp"
#include "core/system.hpp"
#include "scenes/scene.hpp"

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

// A pile of n bodies, boxes (0.1 m, turned about z) and spheres (radius 0.05 m) taking turns, in
// layers of 5 x 5 on a 0.12 m pitch (2 cm gaps) in a bin of ground and four walls, `collide: all`:
// n (n - 1) / 2 + 5 n shape pairs, of which each body has a bounded number within the margin.
std::string pile_scene(int n) {
  std::ostringstream s;
  s << "world:\n  gravity: [0, 0, -9.81]\n  shapes:\n"
       "    - {name: ground, type: halfspace, normal: [0, 0, 1]}\n"
       "    - {name: east, type: halfspace, normal: [-1, 0, 0], offset: -0.31}\n"
       "    - {name: west, type: halfspace, normal: [1, 0, 0], offset: -0.31}\n"
       "    - {name: north, type: halfspace, normal: [0, -1, 0], offset: -0.31}\n"
       "    - {name: south, type: halfspace, normal: [0, 1, 0], offset: -0.31}\nbodies:\n";
  for (int i = 0; i < n; ++i) {
    const int layer = i / 25, k = i % 25;
    const double x = (k % 5 - 2) * 0.12, y = (k / 5 - 2) * 0.12, z = 0.06 + layer * 0.12;
    s << "  - {name: b" << i << ", joint: {type: free}, density: 1000, shapes: [";
    if (i % 2 == 0)
      s << "{name: s" << i << ", type: box, size: [0.1, 0.1, 0.1]}";
    else
      s << "{name: s" << i << ", type: sphere, radius: 0.05}";
    s << "], initial: {x: " << x << ", y: " << y << ", z: " << z << ", rpy_deg: [0, 0, " << 7 * (i % 5) << "]}}\n";
  }
  s << "materials: {mu: 0.3, e: 0}\ncollide: all\nsimulation: {t_end: 1.0}\n";
  return s.str();
}

// One broadphase pass, as each event and each guard reading at the step's points makes: a bound for
// every group of contacts, exact frames for those within the margin. Its time per body should stay
// flat as the pile grows: the pairs grow as n^2, the ones near each body do not.
void BM_BroadphasePile(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const Scene scene = load_scene_text(pile_scene(n), "pile");
  const System& sys = scene.system;
  const Broadphase broadphase(sys.contacts);
  Kinematics kin(sys.model);
  update_kinematics(sys.model, scene.initial.q, kin);
  std::vector<ContactFrame> frames(static_cast<size_t>(sys.contacts.size()));
  int exact = 0;
  for (auto _ : state) {
    exact = broadphase.update(sys.contacts, sys.contact.broadphase_margin, kin.R, kin.p, frames);
    benchmark::DoNotOptimize(frames.data());
  }
  state.counters["contacts"] = sys.contacts.size();
  state.counters["groups"] = broadphase.groups();
  state.counters["exact"] = exact;
  state.counters["per_body"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                                               benchmark::Counter::kInvert);
}
BENCHMARK(BM_BroadphasePile)->Arg(25)->Arg(50)->Arg(100)->Arg(200)->Unit(benchmark::kMicrosecond);

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
