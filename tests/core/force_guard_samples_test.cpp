// The force guards at a step's stages: when the step's interior may be read without forces (every
// lift-off and slip guard on one side of its arming level throughout), what the interior readings
// then take, and the check of a reading with forces against that side.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/force_guard_samples.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

// Two contacts of a unit mass on a table (mu 0.5): a stuck one (lift-off, slip) and a sliding one
// (lift-off, stick, Painleve), with the guards at their arming levels as set_force_floors sets them.
struct Samples {
  ContactModel contacts;
  std::vector<Guard> guards;
  ForceGuardSamples samples;
  Samples() {
    std::vector<Geometry> g(1);
    g[0].shape.type = ShapeType::halfspace;
    g[0].shape.normal = Vec3::UnitY();
    std::vector<ContactDef> defs{{"stuck", 0, Vec3(0, 0, 0), 0.0, 0, 0.5, 0.0},
                                 {"sliding", 0, Vec3(1, 0, 0), 0.0, 0, 0.5, 0.0}};
    contacts = ContactModel(g, defs, true);
    guards = {{0, GuardKind::liftoff}, {0, GuardKind::slip},  {1, GuardKind::liftoff},
              {1, GuardKind::stick},   {1, GuardKind::painleve}};
    for (Guard& guard : guards) {
      guard.armed = guard.kind != GuardKind::painleve;
      if (guard.kind == GuardKind::liftoff || guard.kind == GuardKind::slip) guard.arm_above = 1e-9;
    }
    samples.restart(guards.size());
  }
  // A stage's forces: normal forces n0, n1 and the stuck contact's friction f0.
  void stage(double n0, double n1, double f0) {
    ModeForces forces;
    forces.lambda_n = Eigen::Vector2d(n0, n1);
    forces.lambda_t = Eigen::MatrixXd::Zero(2, 1);
    forces.lambda_t(0, 0) = f0;
    samples.note(contacts, guards, forces);
  }
  // The guards at a reading: lift-off and slip of the stuck contact from n0 and f0, the sliding
  // contact's lift-off from n1, its stick and Painleve guards as given.
  Eigen::VectorXd reading(double n0, double n1, double f0, double stick = 0.1, double painleve = 5.0) const {
    Eigen::VectorXd g(5);
    g << n0, 0.5 * n0 - std::abs(f0), n1, stick, painleve;
    return g;
  }
};

TEST(ForceGuardSamples, StagesOnTheSameSideLetTheInteriorGoWithoutForces) {
  Samples s;
  const Eigen::VectorXd start = s.reading(10, 4, 1);
  s.stage(9, 3, 1);
  s.stage(8, 2, 2);  // the least: slip margin 2, lift-off 2
  s.stage(9.5, 3.5, 1.5);
  EXPECT_TRUE(s.samples.steady(s.guards, start));
  Eigen::VectorXd interior = Eigen::VectorXd::Constant(5, std::numeric_limits<double>::quiet_NaN());
  interior[3] = 0.05;  // read without forces
  s.samples.fill(s.guards, start, interior);
  EXPECT_EQ(interior[0], 8.0);   // the least lift-off value sampled, above its level
  EXPECT_EQ(interior[1], 2.0);   // mu 8 - 2
  EXPECT_EQ(interior[2], 2.0);
  EXPECT_EQ(interior[3], 0.05);  // a guard that reads no forces keeps its own reading
  EXPECT_EQ(interior[4], 5.0);   // Painleve: its value at the step's start
  EXPECT_TRUE(s.samples.keeps_side(s.guards, start, s.reading(8.5, 2.5, 1)));
}

TEST(ForceGuardSamples, AStageAcrossTheLevelAsksForAFullReading) {
  Samples s;
  const Eigen::VectorXd start = s.reading(10, 4, 1);
  s.stage(9, 3, 1);
  s.stage(9, -1e-3, 1);  // the sliding contact would lift off between the readings
  s.stage(9, 3, 1);
  EXPECT_FALSE(s.samples.steady(s.guards, start));
  s.samples.restart(s.guards.size());
  s.stage(9, 3, 4.6);  // friction past the cone: mu 9 - 4.6 < 0
  EXPECT_FALSE(s.samples.steady(s.guards, start));
}

TEST(ForceGuardSamples, AnUnarmedGuardBelowItsLevelThroughoutStaysSo) {
  Samples s;
  s.guards[2].armed = false;  // the sliding contact closed without load
  const Eigen::VectorXd start = s.reading(10, 0.0, 1);
  s.stage(9, 1e-12, 1);
  s.stage(9, -1e-12, 1);
  EXPECT_TRUE(s.samples.steady(s.guards, start));
  Eigen::VectorXd interior = s.reading(0, 0, 0);
  s.samples.fill(s.guards, start, interior);
  EXPECT_LE(interior[2], s.guards[2].arm_above);  // neither arms nor fires
  EXPECT_EQ(interior[2], 1e-12);                   // the greatest value sampled
  s.guards[2].armed = true;  // armed, at or below its level: it may be about to fire
  EXPECT_FALSE(s.samples.steady(s.guards, start));
}

TEST(ForceGuardSamples, WithoutSamplesOfTheseGuardsNothingIsSteady) {
  Samples s;
  const Eigen::VectorXd start = s.reading(10, 4, 1);
  EXPECT_FALSE(s.samples.steady(s.guards, start));  // no stage noted since the restart
  s.stage(9, 3, 1);
  EXPECT_TRUE(s.samples.steady(s.guards, start));
  s.guards.push_back({1, GuardKind::impact});  // the near set grew: the samples are of other guards
  Eigen::VectorXd longer(6);
  longer << start, 1.0;
  EXPECT_FALSE(s.samples.steady(s.guards, longer));
  s.guards.pop_back();
  s.samples.restart(s.guards.size());
  s.stage(std::numeric_limits<double>::quiet_NaN(), 3, 1);
  EXPECT_FALSE(s.samples.steady(s.guards, start));
}

TEST(ForceGuardSamples, AReadingWithForcesOnTheOtherSideFailsTheCheck) {
  Samples s;
  const Eigen::VectorXd start = s.reading(10, 4, 1);
  s.stage(9, 3, 1);
  ASSERT_TRUE(s.samples.steady(s.guards, start));
  EXPECT_FALSE(s.samples.keeps_side(s.guards, start, s.reading(9, -1e-6, 1)));       // lift-off at the end
  EXPECT_FALSE(s.samples.keeps_side(s.guards, start, s.reading(9, 3, 1, 0.1, -1)));  // Painleve's margin
  EXPECT_TRUE(s.samples.keeps_side(s.guards, start, s.reading(9, 3, 1, -0.1)));      // a stick guard is not its business
  EXPECT_FALSE(s.samples.keeps_side(s.guards, start, Eigen::VectorXd()));            // no reading with forces
}

}  // namespace
}  // namespace impactsim
