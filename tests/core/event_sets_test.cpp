// Which contacts an event involves: its frames exact where it reads them, the touching, impacting
// and non-separating sets, and simultaneity within the event's precision.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/event_locate.hpp"
#include "core/event_sets.hpp"
#include "impact/laws.hpp"
#include "scenes/scene.hpp"
#include "tests/core/ball_event.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

// An event's frames come through the broadphase: every contact that can touch, and every contact a
// gate refers to, has its exact frame; the others a lower bound on phi above the distance tolerance,
// so touching is decided as with every frame exact.
TEST(EventSets, EventFramesAreExactWhereAnEventReadsThem) {
  for (const char* name : {"sphere_pile", "compass_gait_walk", "dominoes"}) {
    const Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/" + name + ".yaml");
    const System& sys = scene.system;
    ContactData data(sys.model, sys.contacts);
    compute_body_dynamics(sys.model, scene.initial.q, scene.initial.v, data.body);
    std::vector<ContactFrame> exact(sys.contacts.size());
    compute_contact_frames(sys.contacts, data.body.kin, exact);
    compute_event_frames(sys, data.body.kin, data.broadphase, data.near, data.frames);
    const double tol = sys.contact.distance_tolerance, margin = std::max(sys.contact.broadphase_margin, tol);
    int gates = 0, far = 0;
    for (int i = 0; i < sys.contacts.size(); ++i) {
      const int j = sys.contacts.contact(i).only_ahead_of;
      if (j >= 0) {
        ++gates;
        EXPECT_EQ(data.frames[j].tangent1, exact[j].tangent1) << name;
      }
      EXPECT_EQ(data.frames[i].phi <= tol, exact[i].phi <= tol) << name << " " << sys.contacts.contact(i).name;
      EXPECT_LE(data.frames[i].phi, exact[i].phi + 1e-12) << name;
      if (exact[i].phi <= margin) {
        EXPECT_EQ(data.frames[i].phi, exact[i].phi) << name << " " << sys.contacts.contact(i).name;
        EXPECT_EQ(data.frames[i].normal, exact[i].normal) << name;
      } else {
        ++far;
      }
    }
    if (std::string(name) == "compass_gait_walk") {
      EXPECT_GT(gates, 0);
    } else {
      EXPECT_GT(far, 0);  // the pile and the row have contacts where the bound may stand in
    }
  }
}

// Simultaneity: a contact is part of an event at t within what its approach covers in the event
// location's precision, plus 1e-6 distance tolerances.
TEST(EventSets, ASimultaneousContactIsOneTheEventsPrecisionReaches) {
  ContactSettings s;
  s.distance_tolerance = 1e-6;
  EXPECT_TRUE(simultaneous_contact(0.0, -1.0, 0.0, s));
  EXPECT_TRUE(simultaneous_contact(0.5e-12, 0.0, 0.0, s));   // within 1e-6 of the tolerance
  EXPECT_FALSE(simultaneous_contact(2e-12, 0.0, 0.0, s));    // beyond it, and not approaching
  // Approaching at u covers u kEventTimePrecision max(1, t) within the event's precision.
  const double reach = 1e3 * kEventTimePrecision;  // at 1000 m/s, t <= 1
  EXPECT_TRUE(simultaneous_contact(1e-12 + 0.9 * reach, -1e3, 0.0, s));
  EXPECT_FALSE(simultaneous_contact(1e-12 + 1.1 * reach, -1e3, 0.0, s));
  EXPECT_TRUE(simultaneous_contact(1e-12 + 1.1 * reach, -1e3, 2.0, s));  // at t = 2 s the precision doubles
  EXPECT_FALSE(simultaneous_contact(1e-9, -1.0, 0.0, s));               // a nanometre away: its own event
}

// The sets an event forms from the ball touching the ground: touching, impacting while it
// approaches, not separating unless it leaves faster than the velocity tolerance.
TEST(EventSets, TheBallsSetsFollowItsNormalVelocity) {
  Ball b;
  const System& sys = b.sys;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(sys.model.nv);
  for (double vz : {-1.0, 0.0, 1.0}) {
    v(2) = vz;
    compute_event_data(sys, b.modes, b.q, v, b.data);
    EXPECT_EQ(touching(sys, b.modes, b.data, {}), std::vector<bool>{true});
    EXPECT_EQ(touching_contacts(sys, b.modes, b.data, {}), std::vector<int>{0});
    EXPECT_EQ(impacting(sys, b.modes, b.data, {}, v).size(), vz < 0 ? 1u : 0u) << vz;
    EXPECT_EQ(touching_not_separating(sys, b.modes, b.data, {}, v).size(), vz > 0 ? 0u : 1u) << vz;
    EXPECT_TRUE(touching_contacts(sys, b.modes, b.data, {true}).empty());  // deferred: out of every set
  }
  b.q(2) = 0.1 + 2e-6;  // 2 um up: not touching
  compute_event_data(sys, b.modes, b.q, v, b.data);
  EXPECT_EQ(touching(sys, b.modes, b.data, {}), std::vector<bool>{false});
}

}  // namespace
}  // namespace impactsim
