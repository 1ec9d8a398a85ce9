// Forces in a fixed contact mode, and the mode choice by the acceleration LCP, against the closed
// forms of a point mass on a table and on a slope.
#include <gtest/gtest.h>

#include <cmath>

#include "core/contact_forces.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

constexpr double g = 9.81;

// A planar unit point mass (inertia 1) touching a table through its centre, the table's normal at
// `slope` radians from +y, with friction mu.
struct Table {
  Model model;
  ContactModel contacts;
  ContactSettings settings;
  Table(double mu, double slope) {
    model = testing::single_body_model(JointType::planar, 1.0, Mat3::Identity(), Vec3(0, -g, 0));
    std::vector<Geometry> geometry(1);
    geometry[0].name = "table";
    geometry[0].shape.type = ShapeType::halfspace;
    geometry[0].shape.normal = Vec3(-std::sin(slope), std::cos(slope), 0);
    contacts = ContactModel(geometry, {{"c", 0, Vec3::Zero(), 0.0, 0, mu, 0.0}}, true);
    settings.baumgarte = 0;  // on the surface at rest: no drift to correct
  }
  ContactData at(const Eigen::Vector3d& v) const {
    ContactData d(model, contacts);
    compute_contact_data(model, contacts, Eigen::Vector3d::Zero(), v, {}, d);
    return d;
  }
};

ContactModes one(ContactMode mode, const Eigen::Vector2d& slip = Eigen::Vector2d::UnitX()) {
  ContactModes m = ContactModes::all_open(1);
  m.mode[0] = mode;
  m.slip[0] = slip;
  return m;
}

TEST(ContactForces, StickingOnATableCarriesTheWeight) {
  const Table t(0.5, 0.0);
  const ContactData d = t.at(Eigen::Vector3d::Zero());
  ModeForces f;
  ASSERT_TRUE(constrained_acceleration(t.contacts, 0.0, d.body, d.frames, d.jac, one(ContactMode::stick), f));
  EXPECT_NEAR(f.lambda_n(0), g, 1e-12);
  EXPECT_NEAR(f.lambda_t(0, 0), 0.0, 1e-12);
  EXPECT_LT(f.vdot.norm(), 1e-12);
}

TEST(ContactForces, SlidingFrictionIsMuTimesTheNormalForceAgainstTheSlip) {
  const Table t(0.5, 0.0);
  const ContactData d = t.at(Eigen::Vector3d(2, 0, 0));
  ModeForces f;
  ASSERT_TRUE(constrained_acceleration(t.contacts, 0.0, d.body, d.frames, d.jac, one(ContactMode::slide), f));
  EXPECT_NEAR(f.lambda_n(0), g, 1e-12);
  EXPECT_NEAR(f.lambda_t(0, 0), -0.5 * g, 1e-12);
  EXPECT_NEAR(f.vdot(0), -0.5 * g, 1e-12);
  EXPECT_NEAR(f.vdot(1), 0.0, 1e-12);
}

TEST(ContactForces, AnOpenContactLeavesFreeFall) {
  const Table t(0.5, 0.0);
  const ContactData d = t.at(Eigen::Vector3d::Zero());
  ModeForces f;
  ASSERT_TRUE(constrained_acceleration(t.contacts, 0.0, d.body, d.frames, d.jac, ContactModes::all_open(1), f));
  EXPECT_EQ(f.lambda_n(0), 0.0);
  EXPECT_NEAR(f.vdot(1), -g, 1e-12);
}

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

TEST(ContactForces, ClosedFlagsAndCounts) {
  ContactModes m = ContactModes::all_open(3);
  m.mode[1] = ContactMode::slide;
  std::vector<bool> closed;
  closed_flags(m, closed);
  EXPECT_EQ(closed, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(m.closed(), 1);
}

}  // namespace
}  // namespace impactsim
