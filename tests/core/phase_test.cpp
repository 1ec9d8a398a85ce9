// The smooth phase at a state: its ODE in free flight is gravity's, a guard read alone is its value
// among all to the bit (root finding reads one guard, the scan reads them all), and rows are
// counted with the deepest penetration they see.
#include <gtest/gtest.h>

#include "core/event_handling.hpp"
#include "core/kinematics.hpp"
#include "core/phase.hpp"
#include "scenes/scene.hpp"

namespace impactsim {
namespace {

Scene pile() { return load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/sphere_pile.yaml"); }

// The phase's guards at x, every contact followed, all open: an impact guard each.
void open_phase(const System& sys, LoopData& d, const Eigen::VectorXd& x) {
  d.contact.near = d.contact.broadphase.everything(sys.contacts);
  Kinematics kin(sys.model);
  update_kinematics(sys.model, x.head(sys.model.nq), kin);
  compute_event_frames(sys, kin, d.contact.broadphase, d.contact.near, d.contact.frames);
  d.phase.phi_start.assign(sys.contacts.size(), 0.0);
  for (int i : d.contact.near.contacts) d.phase.phi_start[i] = d.contact.frames[i].phi;
  phase_guards(sys.contacts, d.phase.modes, d.phase.phi_start, sys.contact.distance_tolerance, d.contact.near.contacts,
               d.phase.guards);
}

Eigen::VectorXd state(const Scene& scene) {
  Eigen::VectorXd x(scene.system.model.nq + scene.system.model.nv);
  x << scene.initial.q, scene.initial.v;
  return x;
}

TEST(Phase, FreeFlightFallsWithGravity) {
  const Scene scene = pile();
  const System& sys = scene.system;
  LoopData d(sys);
  Eigen::VectorXd x = state(scene), dx(x.size());
  x.tail(sys.model.nv).setRandom();
  ASSERT_TRUE(phase_rhs(sys, d, x, dx));
  for (int b = 0; b < static_cast<int>(sys.model.bodies.size()); ++b) {
    // A free body: q = (p, quaternion), v = (linear in the world, angular in the body).
    EXPECT_EQ(dx.segment(7 * b, 3), x.segment(sys.model.nq + 6 * b, 3)) << b;
    EXPECT_TRUE(dx.segment(sys.model.nq + 6 * b, 3).isApprox(sys.model.gravity, 1e-12)) << b;
  }
}

TEST(Phase, AGuardReadAloneIsItsValueAmongAll) {
  const Scene scene = pile();
  const System& sys = scene.system;
  LoopData d(sys);
  Eigen::VectorXd x = state(scene);
  open_phase(sys, d, x);
  ASSERT_GT(d.phase.guards.size(), 50u);
  for (double drop : {0.0, 0.05, 0.11}) {  // the spheres lowered, some through one another
    Eigen::VectorXd y = x;
    for (int b = 0; b < static_cast<int>(sys.model.bodies.size()); ++b) y(7 * b + 2) -= drop * (1 + 0.1 * b);
    Eigen::VectorXd g;
    guards_at_state(sys, d, y, g);
    ASSERT_EQ(g.size(), static_cast<Eigen::Index>(d.phase.guards.size()));
    for (int k = 0; k < g.size(); ++k) EXPECT_EQ(guard_at_state(sys, d, y, k), g[k]) << "guard " << k << " drop " << drop;
  }
}

TEST(Phase, RowsAreCountedAndTheirPenetrationRecorded) {
  const Scene scene = pile();
  const System& sys = scene.system;
  LoopData d(sys);
  d.contact.near = d.contact.broadphase.everything(sys.contacts);
  Eigen::VectorXd x = state(scene);
  int rows = 0;
  const SampleSink sink = [&](const Sample& s) {
    ++rows;
    EXPECT_EQ(s.t, 0.5);
  };
  emit(sys, d, sink, 0.5, x);
  EXPECT_EQ(d.stats.samples, 1);
  EXPECT_EQ(d.stats.min_phi, 0.0);  // every sphere starts clear of everything
  x(2) = 0.05 - 2e-4;               // the first sphere (radius 0.05 m) 0.2 mm into the ground
  track_penetration(sys, d, x);
  EXPECT_NEAR(d.stats.min_phi, -2e-4, 1e-12);
  emit(sys, d, {}, 0.6, x);  // no sink: no row
  EXPECT_EQ(rows, 1);
  EXPECT_EQ(d.stats.samples, 1);
}

}  // namespace
}  // namespace impactsim
