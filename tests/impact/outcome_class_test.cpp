// Per-contact outcome classes of a post-impact velocity (lift, slide, stick, rest).
#include <gtest/gtest.h>

#include "impact/outcome_class.hpp"
#include "tests/impact/contact_spaces.hpp"

namespace impactsim {
namespace {

using testing::rocking_block;

TEST(OutcomeClass, EachClassFromItsDefinition) {
  const ContactSpace c = rocking_block();  // A at (-0.5, -1), B at (0.5, -1); v = (vx, vy, omega)
  const double tol = 1e-6;
  EXPECT_EQ(outcome_class(c, Eigen::Vector3d::Zero(), 0, tol), OutcomeClass::rest);
  // Pivoting about A: B lifts, A sticks (the system still moves).
  const double w = 0.2;
  const Eigen::Vector3d pivot_a(-w, 0.5 * w, w);  // A does not move: J_n,A v = J_t,A v = 0
  EXPECT_NEAR((c.J_n.row(0) * pivot_a)(0), 0.0, 1e-15);
  EXPECT_NEAR((c.J_t.row(0) * pivot_a)(0), 0.0, 1e-15);
  EXPECT_EQ(outcome_class(c, pivot_a, 0, tol), OutcomeClass::stick);
  EXPECT_EQ(outcome_class(c, pivot_a, 1, tol), OutcomeClass::lift);
  // Sliding along the ground.
  EXPECT_EQ(outcome_class(c, Eigen::Vector3d(0.1, 0, 0), 0, tol), OutcomeClass::slide);
  // Below the tolerance counts as zero.
  EXPECT_EQ(outcome_class(c, Eigen::Vector3d(1e-8, 1e-8, 0), 1, tol), OutcomeClass::rest);
}

TEST(OutcomeClass, ToleranceScalesWithTheFastestApproach) {
  const ContactSpace c = rocking_block();  // J_n v = v_y at both corners for v = (0, v_y, 0)
  EXPECT_DOUBLE_EQ(outcome_tolerance(c, Eigen::Vector3d(0, -0.5, 0)), 1e-6);  // slower than 1 m/s: 1e-6
  EXPECT_DOUBLE_EQ(outcome_tolerance(c, Eigen::Vector3d(0, -40, 0)), 4e-5);
  EXPECT_DOUBLE_EQ(outcome_tolerance(c, Eigen::Vector3d(0, -40, 0.2)), 1e-6 * 40.1);  // A, the faster: -40 - 0.5 * 0.2
}

TEST(OutcomeClass, NamesAreTheSamplesCsvWords) {
  EXPECT_STREQ(outcome_class_name(OutcomeClass::rest), "rest");
  EXPECT_STREQ(outcome_class_name(OutcomeClass::stick), "stick");
  EXPECT_STREQ(outcome_class_name(OutcomeClass::slide), "slide");
  EXPECT_STREQ(outcome_class_name(OutcomeClass::lift), "lift");
}

// A step cap with a contact approaching is a collision whatever else went wrong; a failure of a
// terminated sample is `failed`.
TEST(OutcomeClass, SampleStatusFromTerminatedAndOk) {
  ImpactResult r;
  EXPECT_EQ(sample_status(r), SampleStatus::accepted);
  r.ok = false;
  EXPECT_EQ(sample_status(r), SampleStatus::failed);
  r.terminated = false;
  EXPECT_EQ(sample_status(r), SampleStatus::collide);
  r.ok = true;
  EXPECT_EQ(sample_status(r), SampleStatus::collide);
  EXPECT_STREQ(sample_status_name(SampleStatus::collide), "collide");
  EXPECT_STREQ(sample_status_name(SampleStatus::failed), "failed");
}

}  // namespace
}  // namespace impactsim
