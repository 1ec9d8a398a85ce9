// Which contacts an event leaves alone: islands of touching contacts that no fired guard, impact,
// new touch or separation reached.
#include <gtest/gtest.h>

#include <string>

#include "core/settled_islands.hpp"
#include "numerics/mass_factor.hpp"
#include "scenes/scene.hpp"
#include "tests/core/resting_balls.hpp"

namespace impactsim {
namespace {

Scene balls_on_the_ground(int balls, bool stacked) { return testing::resting_balls(balls, 0.0, false, stacked); }

ContactModes all_sticking(int contacts) {
  ContactModes modes = ContactModes::all_open(contacts);
  for (ContactMode& m : modes.mode) m = ContactMode::stick;
  return modes;
}

// Eleven balls on the ground and one on the last (nv = 72): each ball on the ground is its own
// island, the last two balls share one. The event fired ball 3's guard, an impact changed ball 5's
// velocity (it now slides along x, still a candidate), ball 7 comes into touch (open in the
// modes), and the top ball, rising at 1 m/s through the phase, separates from the last (closed, no
// longer a candidate): every other ball's contact is settled.
TEST(SettledIslands, OnlyIslandsTheEventDidNotReachAreSettled) {
  const Scene scene = balls_on_the_ground(11, true);
  const System& sys = scene.system;
  ASSERT_GE(sys.model.nv, kBlockwiseFrom);
  ContactData data{sys.model, sys.contacts};
  Eigen::VectorXd v_before = Eigen::VectorXd::Zero(sys.model.nv);
  v_before(6 * 11 + 2) = 1.0;
  compute_contact_data(sys.model, sys.contacts, scene.initial.q, v_before, {}, data);
  ContactModes modes = all_sticking(sys.contacts.size());
  modes.mode[7] = ContactMode::open;
  Eigen::VectorXd v = v_before;
  v(6 * 5) = 0.1;
  const std::vector<bool> settled = settled_contacts(sys, modes, data, {}, {{3, GuardKind::liftoff}}, v_before, v);
  ASSERT_EQ(settled.size(), 12u);
  for (int k = 0; k < 12; ++k) {
    const bool reached = k == 3 || k == 5 || k == 7 || k == 10 || k == 11;
    EXPECT_EQ(settled[k], !reached) << k;
  }
}

// Nothing happened anywhere: every island is settled. Below kBlockwiseFrom velocities nothing is.
TEST(SettledIslands, ASmallModelIsChosenWhole) {
  const Scene large = balls_on_the_ground(11, false), small = balls_on_the_ground(2, false);
  for (const Scene* scene : {&large, &small}) {
    const System& sys = scene->system;
    ContactData data{sys.model, sys.contacts};
    const Eigen::VectorXd v = Eigen::VectorXd::Zero(sys.model.nv);
    compute_contact_data(sys.model, sys.contacts, scene->initial.q, v, {}, data);
    const std::vector<bool> settled = settled_contacts(sys, all_sticking(sys.contacts.size()), data, {}, {}, v, v);
    if (sys.model.nv < kBlockwiseFrom) {
      EXPECT_TRUE(settled.empty());
    } else {
      EXPECT_EQ(settled, std::vector<bool>(11, true));
    }
  }
}

}  // namespace
}  // namespace impactsim
