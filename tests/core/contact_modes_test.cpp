// The mode choice by the acceleration LCP: Coulomb's stick or slide on a slope, islands of separate
// bodies, and a fired guard tipping a boundary case.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/contact_forces.hpp"
#include "core/contact_modes.hpp"
#include "tests/core/contact_fixtures.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(ContactForces, ModeChoiceFollowsCoulomb) {
  std::string why;
  ContactModes modes = ContactModes::all_open(1);
  // At rest on a flat table: stick.
  {
    const Table t(0.5, 0.0);
    const ContactData d = t.at(Eigen::Vector3d::Zero());
    ASSERT_TRUE(select_modes(t.contacts, t.settings, d.body, d.jac, {0}, {}, modes, why)) << why;
    EXPECT_EQ(modes.mode[0], ContactMode::stick);
  }
  // Moving along it: slide the way it moves.
  {
    const Table t(0.5, 0.0);
    const ContactData d = t.at(Eigen::Vector3d(-1, 0, 0));
    ASSERT_TRUE(select_modes(t.contacts, t.settings, d.body, d.jac, {0}, {}, modes, why)) << why;
    EXPECT_EQ(modes.mode[0], ContactMode::slide);
    EXPECT_EQ(modes.slip[0](0), -1.0);
  }
  // At rest on a 30 degree slope: sticks when mu >= tan 30 degrees, else slides downhill.
  const double slope = M_PI / 6;
  {
    const Table t(0.6, slope);
    const ContactData d = t.at(Eigen::Vector3d::Zero());
    ASSERT_TRUE(select_modes(t.contacts, t.settings, d.body, d.jac, {0}, {}, modes, why)) << why;
    EXPECT_EQ(modes.mode[0], ContactMode::stick);
  }
  {
    const Table t(0.5, slope);
    const ContactData d = t.at(Eigen::Vector3d::Zero());
    ASSERT_TRUE(select_modes(t.contacts, t.settings, d.body, d.jac, {0}, {}, modes, why)) << why;
    ASSERT_EQ(modes.mode[0], ContactMode::slide);
    // The tangent is the normal turned clockwise: (cos, sin) on this slope, which points uphill.
    EXPECT_LT(modes.slip[0](0), 0.0);
  }
  // A table above the block (normal -y): gravity pulls the block away, the contact opens.
  {
    const Table t(0.5, M_PI);
    const ContactData d = t.at(Eigen::Vector3d::Zero());
    ASSERT_TRUE(select_modes(t.contacts, t.settings, d.body, d.jac, {0}, {}, modes, why)) << why;
    EXPECT_EQ(modes.mode[0], ContactMode::open);
  }
}

// From kBlockwiseFrom velocities on, bodies that share no contact choose their modes by one
// acceleration LCP each: 22 bodies on two corners, every other one moving along -x, each takes the
// modes Coulomb gives it alone (the movers slide along their motion, the others stick), and its
// corners carry its weight.
TEST(ContactForces, SeparateBodiesChooseTheirModesIslandByIsland) {
  RestingBodies r(22, {-0.5, 0.5}, 0.5);
  ASSERT_GE(r.model.nv, kBlockwiseFrom);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(r.model.nv);
  for (int i = 0; i < 22; i += 2) v[3 * i] = -1.0;
  compute_contact_data(r.model, r.contacts, Eigen::VectorXd::Zero(r.model.nq), v, {}, *r.data);
  std::vector<int> candidates(r.contacts.size());
  for (int i = 0; i < r.contacts.size(); ++i) candidates[i] = i;
  ContactModes modes = ContactModes::all_open(r.contacts.size());
  std::string why;
  ASSERT_TRUE(select_modes(r.contacts, ContactSettings{}, r.data->body, r.data->jac, candidates, {}, modes, why)) << why;
  for (int i = 0; i < 22; ++i) {
    for (int c = 2 * i; c < 2 * i + 2; ++c) {
      if (i % 2 == 0) {
        ASSERT_EQ(modes.mode[c], ContactMode::slide) << c;
        EXPECT_EQ(modes.slip[c](0), -1.0) << c;
      } else {
        EXPECT_EQ(modes.mode[c], ContactMode::stick) << c;
      }
    }
    EXPECT_NEAR(modes.reference_n[2 * i] + modes.reference_n[2 * i + 1], (1.0 + 0.1 * i) * g, 1e-9) << i;
  }
  // Body 0 alone (same mass) chooses the same forces.
  RestingBodies alone(1, {-0.5, 0.5}, 0.5);
  compute_contact_data(alone.model, alone.contacts, Eigen::VectorXd::Zero(3), v.head(3), {}, *alone.data);
  ContactModes one = ContactModes::all_open(2);
  ASSERT_TRUE(select_modes(alone.contacts, ContactSettings{}, alone.data->body, alone.data->jac, {0, 1}, {}, one, why));
  for (int c = 0; c < 2; ++c) {
    EXPECT_EQ(one.mode[c], modes.mode[c]);
    EXPECT_NEAR(one.reference_n[c], modes.reference_n[c], 1e-12) << c;
  }
  // The caller's Lemke options reach every island's LCP: one pivot each is too few.
  LcpOptions one_pivot;
  one_pivot.max_pivots = 1;
  ContactModes starved = ContactModes::all_open(r.contacts.size());
  EXPECT_FALSE(select_modes(r.contacts, ContactSettings{}, r.data->body, r.data->jac, candidates, {}, starved, why,
                            one_pivot));
  EXPECT_NE(why.find("pivot"), std::string::npos) << why;
}

TEST(ContactForces, AFiredGuardTipsTheBalanceOfABoundaryCase) {
  // Friction at the cone's edge (mu = tan 30 degrees, a hair above) sticks unless the slip guard fired.
  const Table t(std::tan(M_PI / 6) * (1 + 1e-9), M_PI / 6);
  const ContactData d = t.at(Eigen::Vector3d::Zero());
  std::string why;
  ContactModes modes = ContactModes::all_open(1);
  ASSERT_TRUE(select_modes(t.contacts, t.settings, d.body, d.jac, {0}, {}, modes, why)) << why;
  EXPECT_EQ(modes.mode[0], ContactMode::stick);
  ModePreference prefer{{false}, {true}};
  ASSERT_TRUE(select_modes(t.contacts, t.settings, d.body, d.jac, {0}, prefer, modes, why)) << why;
  EXPECT_EQ(modes.mode[0], ContactMode::slide);
}

}  // namespace
}  // namespace impactsim
