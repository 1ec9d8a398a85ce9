// The guards of a phase: which a mode arms, their floors, their values from the contact data, and
// the explicit updates (arming, passing) and the penetration check.
#include <gtest/gtest.h>

#include "core/guards.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

// Three contacts of a planar unit mass on a table, the third gated behind the second.
struct Rig {
  Model model;
  ContactModel contacts;
  Rig() {
    model = testing::single_body_model(JointType::planar, 1.0, Mat3::Identity(), Vec3(0, -9.81, 0));
    std::vector<Geometry> g(1);
    g[0].shape.type = ShapeType::halfspace;
    g[0].shape.normal = Vec3::UnitY();
    std::vector<ContactDef> defs{{"open", 0, Vec3(0, 0, 0), 0.0, 0, 0.5, 0.0},
                                 {"stuck", 0, Vec3(1, 0, 0), 0.0, 0, 0.5, 0.0},
                                 {"gated", 0, Vec3(-1, 0, 0), 0.0, 0, 0.5, 0.0, 1}};
    contacts = ContactModel(g, defs, true);
  }
};

TEST(Guards, EachModeHasItsGuardsAndImpactGuardsTheirFloors) {
  const Rig r;
  ContactModes modes = ContactModes::all_open(3);
  modes.mode[1] = ContactMode::stick;
  std::vector<Guard> guards;
  phase_guards(r.contacts, modes, {0.3, 0.0, -1e-3}, 1e-6, {0, 1, 2}, guards);
  ASSERT_EQ(guards.size(), 4u);
  EXPECT_EQ(guards[0].kind, GuardKind::impact);
  EXPECT_EQ(guards[0].floor, -kPhiMargin);  // above the surface: phi measured from just below 0
  EXPECT_EQ(guards[1].kind, GuardKind::liftoff);
  EXPECT_EQ(guards[2].kind, GuardKind::slip);
  EXPECT_EQ(guards[3].contact, 2);
  EXPECT_EQ(guards[3].floor, -kPhiMargin);  // a gated contact below the surface arms once clear
  EXPECT_TRUE(guards[3].passing);
  for (const Guard& g : guards) EXPECT_FALSE(g.armed);
  modes.mode[1] = ContactMode::slide;
  phase_guards(r.contacts, modes, {-2e-7, 0.0, 0.5}, 1e-6, {0, 1, 2}, guards);
  EXPECT_EQ(guards[0].floor, -2e-7 - kPhiMargin);  // starting slightly in: from there
  EXPECT_EQ(guards[2].kind, GuardKind::stick);
  EXPECT_EQ(guards[3].kind, GuardKind::painleve);  // a frictional slide
  EXPECT_FALSE(guards[4].passing);
}

TEST(Guards, ValuesComeFromTheContactData) {
  const Rig r;
  ContactModes modes = ContactModes::all_open(3);
  modes.mode[1] = ContactMode::slide;
  modes.slip[1] = Eigen::Vector2d(-1, 0);
  ContactData data(r.model, r.contacts);
  const Eigen::Vector3d q(0.5, 0.2, 0), v(0.3, 0, 0);
  std::vector<bool> need{true, true, true};
  compute_contact_data(r.model, r.contacts, q, v, need, data);
  ModeForces forces;
  forces.lambda_n = Eigen::Vector3d(0, 4, 0);
  forces.lambda_t = Eigen::MatrixXd::Zero(3, 1);
  std::vector<Guard> guards;
  phase_guards(r.contacts, modes, {0.2, 0.2, 0.2}, 1e-6, {0, 1, 2}, guards);
  Eigen::VectorXd g;
  evaluate_guards(r.contacts, modes, guards, {data.body.kin, data.frames, data.jac, v, forces}, g);
  ASSERT_EQ(g.size(), 5);
  EXPECT_NEAR(g(0), 0.2 + kPhiMargin, 1e-15);  // phi - floor
  EXPECT_EQ(g(1), 4.0);                         // lambda_n
  EXPECT_NEAR(g(2), -0.3, 1e-15);               // slip direction . tangential velocity: the slip reversed
  EXPECT_EQ(g(3), kGuardInactive);              // forces set by hand, no force system: no Painleve margin
  // The gated contact (x = -0.5) is behind its leader (x = 1.5) along +x: inactive, then passing.
  EXPECT_EQ(g(4), kGuardInactive);
  note_passing(guards, g);
  EXPECT_TRUE(guards[4].passing);
  EXPECT_FALSE(guards[3].passing);  // only impact guards pass
  arm_guards(guards, g);
  EXPECT_TRUE(guards[0].armed);
  EXPECT_TRUE(guards[1].armed);
  EXPECT_FALSE(guards[2].armed);  // negative
  EXPECT_FALSE(guards[4].armed);  // inactive
  EXPECT_EQ(guard_tolerance(guards[0], 1e-6), 1e-6);
  EXPECT_EQ(guard_tolerance(guards[1], 1e-6), 0.0);
}

// A Painleve guard measures from a thousandth of the margin its phase starts with, so it fires
// while the force is large but finite; a guard without a finite positive margin keeps floor 0.
TEST(Guards, PainleveGuardsFireAtAThousandthOfTheirStartingMargin) {
  std::vector<Guard> guards{{0, GuardKind::painleve}, {1, GuardKind::painleve}, {2, GuardKind::liftoff}};
  Eigen::VectorXd g(3);
  g << 2.0, kGuardInactive, 5.0;
  set_painleve_floors(guards, g);
  EXPECT_EQ(guards[0].floor, kPainleveFraction * 2.0);
  EXPECT_EQ(g[0], 2.0 - kPainleveFraction * 2.0);
  EXPECT_EQ(guards[1].floor, 0.0);
  EXPECT_EQ(g[1], kGuardInactive);
  EXPECT_EQ(guards[2].floor, 0.0);
  EXPECT_EQ(g[2], 5.0);
}

// Only a held slide (ContactModes::held) has a follow guard, hold_speed - |J_t v|: it fires where
// the slip reaches the hold speed, whichever way the slip points.
TEST(Guards, AHeldSlideFollowsItsSlipOnceItReachesTheHoldSpeed) {
  const Rig r;
  ContactModes modes = ContactModes::all_open(3);
  modes.mode[1] = ContactMode::slide;
  modes.slip[1] = Eigen::Vector2d(1, 0);
  modes.hold_speed = 1e-4;
  std::vector<Guard> guards;
  phase_guards(r.contacts, modes, {0.2, 0.0, 0.2}, 1e-6, {0, 1, 2}, guards);
  for (const Guard& g : guards) EXPECT_NE(g.kind, GuardKind::follow);
  modes.held = {false, true, false};
  phase_guards(r.contacts, modes, {0.2, 0.0, 0.2}, 1e-6, {0, 1, 2}, guards);
  ASSERT_EQ(guards.size(), 6u);
  ASSERT_EQ(guards[4].kind, GuardKind::follow);
  EXPECT_EQ(guards[4].contact, 1);
  ContactData data(r.model, r.contacts);
  ModeForces forces;
  forces.lambda_n = Eigen::Vector3d(0, 4, 0);
  forces.lambda_t = Eigen::MatrixXd::Zero(3, 1);
  const auto follow_guard = [&](double slip) {
    const Eigen::Vector3d q(0.5, 0.0, 0), v(slip, 0, 0);
    compute_contact_data(r.model, r.contacts, q, v, {true, true, true}, data);
    Eigen::VectorXd g;
    evaluate_guards(r.contacts, modes, guards, {data.body.kin, data.frames, data.jac, v, forces}, g);
    return g[4];
  };
  EXPECT_NEAR(follow_guard(0.0), 1e-4, 1e-18);
  EXPECT_NEAR(follow_guard(2.5e-5), 7.5e-5, 1e-18);
  EXPECT_NEAR(follow_guard(-2e-4), -1e-4, 1e-18);  // against s: past the hold speed too
}

// A 3-D unit mass on a floor, one frictional and one frictionless contact at its origin.
struct SpatialRig {
  Model model;
  ContactModel contacts;
  SpatialRig() {
    model = testing::single_body_model(JointType::free, 1.0, Mat3::Identity(), Vec3(0, 0, -9.81));
    std::vector<Geometry> g(1);
    g[0].shape = testing::halfspace_shape(Vec3::UnitZ(), 0.0);
    std::vector<ContactDef> defs{{"rough", 0, Vec3::Zero(), 0.0, 0, 0.5, 0.0}, {"smooth", 0, Vec3::Zero(), 0.0, 0, 0.0, 0.0}};
    contacts = ContactModel(g, defs, false);
  }
};

// A 3-D frictional slide that follows its slip has a hold guard, |J_t v| - kHoldFraction
// hold_speed: it fires where the slip slows to below the fraction that an event holds
// (kHeldSlipFraction, static_assert in core/guards.hpp), so the slip's last turns are taken held.
// None for a held slide (it has its follow guard), a frictionless one, a planar model or
// hold_speed 0.
TEST(Guards, AFollowingSlideIsHeldOnceItSlowsBelowTheHoldSpeed) {
  const SpatialRig r;
  ContactModes modes = ContactModes::all_open(2);
  modes.mode = {ContactMode::slide, ContactMode::slide};
  modes.slip = {Eigen::Vector2d(1, 0), Eigen::Vector2d(1, 0)};
  modes.hold_speed = 1e-4;
  std::vector<Guard> guards;
  const auto kinds = [&] {
    phase_guards(r.contacts, modes, {0.0, 0.0}, 1e-6, {0, 1}, guards);
    std::vector<GuardKind> out;
    for (const Guard& g : guards) out.push_back(g.kind);
    return out;
  };
  using K = GuardKind;
  EXPECT_EQ(kinds(), (std::vector<K>{K::liftoff, K::stick, K::painleve, K::hold, K::liftoff}));
  ContactData data(r.model, r.contacts);
  ModeForces forces;
  forces.lambda_n = Eigen::Vector2d(9.81, 0);
  forces.lambda_t = Eigen::MatrixXd::Zero(2, 2);
  const auto hold_guard = [&](double vx, double vy) {
    Eigen::VectorXd q = Eigen::VectorXd::Zero(7), v = Eigen::VectorXd::Zero(6);
    q[3] = 1.0;  // identity orientation
    v[0] = vx, v[1] = vy;
    compute_contact_data(r.model, r.contacts, q, v, {true, true}, data);
    Eigen::VectorXd g;
    evaluate_guards(r.contacts, modes, guards, {data.body.kin, data.frames, data.jac, v, forces}, g);
    return g[3];
  };
  EXPECT_NEAR(hold_guard(1e-3, 0.0), 1e-3 - kHoldFraction * 1e-4, 1e-18);
  EXPECT_NEAR(hold_guard(0.0, 3e-5), 3e-5 - kHoldFraction * 1e-4, 1e-18);  // whichever way it turned
  EXPECT_NEAR(hold_guard(0.0, 0.0), -kHoldFraction * 1e-4, 1e-18);
  modes.held = {true, false};
  EXPECT_EQ(kinds(), (std::vector<K>{K::liftoff, K::stick, K::painleve, K::follow, K::liftoff}));
  modes.held = {false, false};
  modes.hold_speed = 0.0;
  EXPECT_EQ(kinds(), (std::vector<K>{K::liftoff, K::stick, K::painleve, K::liftoff}));
}

// A slide from rest arms its stick guard at once and fires it where the slip has reversed by
// kSlipNoise, not where rounding crosses zero; a slide with a real slip keeps the exact zero.
TEST(Guards, StickGuardsOfSlidesFromRestFireOnceTheSlipReverses) {
  const Rig r;
  ContactModes modes = ContactModes::all_open(3);
  modes.mode[1] = ContactMode::slide;
  modes.slip[1] = Eigen::Vector2d(1, 0);
  ContactData data(r.model, r.contacts);
  std::vector<Guard> guards;
  phase_guards(r.contacts, modes, {0.2, 0.0, 0.2}, 1e-6, {0, 1, 2}, guards);
  ASSERT_EQ(guards[2].kind, GuardKind::stick);
  ModeForces forces;
  forces.lambda_n = Eigen::Vector3d(0, 4, 0);
  forces.lambda_t = Eigen::MatrixXd::Zero(3, 1);
  const Eigen::Vector3d q(0.5, 0.0, 0);
  const auto stick_guard = [&](double slip) {
    const Eigen::Vector3d v(slip, 0, 0);
    compute_contact_data(r.model, r.contacts, q, v, {true, true, true}, data);
    Eigen::VectorXd g;
    evaluate_guards(r.contacts, modes, guards, {data.body.kin, data.frames, data.jac, v, forces}, g);
    return g;
  };
  Eigen::VectorXd g = stick_guard(-1e-27);  // at rest, a rounding's worth below zero
  set_stick_floors(guards, 1e-6, g);
  EXPECT_EQ(guards[2].floor, -kSlipNoise);
  EXPECT_EQ(g[2], -1e-27 + kSlipNoise);
  arm_guards(guards, g);
  EXPECT_TRUE(guards[2].armed);
  EXPECT_GT(stick_guard(-0.5 * kSlipNoise)[2], 0.0);  // noise: no event
  EXPECT_LT(stick_guard(-2 * kSlipNoise)[2], 0.0);    // reversed: the guard fires
  phase_guards(r.contacts, modes, {0.2, 0.0, 0.2}, 1e-6, {0, 1, 2}, guards);
  g = stick_guard(0.25);  // sliding
  set_stick_floors(guards, 1e-6, g);
  EXPECT_EQ(guards[2].floor, 0.0);
  EXPECT_EQ(g[2], 0.25);
  EXPECT_EQ(stick_guard(0.0)[2], 0.0);
}

TEST(Guards, AnUnarmedOpenContactThatSinksIsAnError) {
  const Rig r;
  std::vector<Guard> guards{{0, GuardKind::impact, false}, {1, GuardKind::impact, true}};
  EXPECT_NO_THROW(check_unarmed_penetration(r.contacts, guards, Eigen::Vector2d(-5e-6, -1.0), 1e-6, 0.5));
  try {
    check_unarmed_penetration(r.contacts, guards, Eigen::Vector2d(-2e-5, 1.0), 1e-6, 0.5);
    FAIL();
  } catch (const SimulationError& e) {
    EXPECT_EQ(e.time(), 0.5);
    EXPECT_NE(std::string(e.what()).find("contact 'open' penetrated 2e-05 m at t = 0.5 s"), std::string::npos)
        << e.what();
  }
}

// Stall messages name guards by kind: every kind has its own name.
TEST(Guards, EveryKindHasItsName) {
  EXPECT_EQ(guard_kind_name(GuardKind::impact), "impact");
  EXPECT_EQ(guard_kind_name(GuardKind::liftoff), "liftoff");
  EXPECT_EQ(guard_kind_name(GuardKind::slip), "slip");
  EXPECT_EQ(guard_kind_name(GuardKind::stick), "stick");
  EXPECT_EQ(guard_kind_name(GuardKind::painleve), "painleve");
  EXPECT_EQ(guard_kind_name(GuardKind::follow), "follow");
  EXPECT_EQ(guard_kind_name(GuardKind::hold), "hold");
  EXPECT_EQ(kGuardKinds, 7);
}

}  // namespace
}  // namespace impactsim
