// Slip from rest in 3-D against closed forms: a ball at rest on the ground under gravity tilted off
// the normal (an incline), in a direction between two of the friction polygon's directions.
// Sliding, the contact point accelerates as a_t = g_t - (7/2) mu g_n s (translation plus the spin
// friction gives a solid ball, I = 2/5 m r^2), so the consistent slip is s = g_t / |g_t| with
// k = |g_t| - (7/2) mu g_n, and the ball rolls (sticks) for mu >= (2/7) |g_t| / g_n with friction
// (2/7) m |g_t|.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>

#include "core/event_handling.hpp"
#include "core/contact_modes.hpp"
#include "core/slip_start.hpp"
#include "scenes/scene.hpp"

namespace impactsim {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct TiltedBall {
  explicit TiltedBall(double mu) : scene(ball_scene(mu)) {
    q(2) = 0.1;  // on the ground
    Model& model = scene.system.model;
    // The tangential gravity points 10 degrees from the contact's tangent1 (the polygon has
    // directions every 45 degrees from it).
    const Vec3 t1 = Vec3::UnitX(), t2 = Vec3::UnitY();
    const double beta = 10 * kPi / 180;
    direction << std::cos(beta), std::sin(beta);
    model.gravity = g_t * (std::cos(beta) * t1 + std::sin(beta) * t2) - g_n * Vec3::UnitZ();
  }
  // The shipped bouncing ball (radius 0.1 m) with friction coefficient mu.
  static Scene ball_scene(double mu) {
    std::ifstream in(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/bouncing_ball.yaml");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string shipped = "mu: 0.5";
    EXPECT_NE(text.find(shipped), std::string::npos);
    text.replace(text.find(shipped), shipped.size(), "mu: " + std::to_string(mu));
    return load_scene_text(text, "tilted_ball");
  }
  Scene scene;
  const System& sys = scene.system;
  const double g_n = 9.81, g_t = 0.35 * 9.81;  // tan(incline) = 0.35: rolling needs mu >= 0.1
  Eigen::Vector2d direction;                    // of g_t in tangent coordinates
  ContactData data{sys.model, sys.contacts};
  ModeForces forces;
  ContactModes modes = ContactModes::all_open(1);
  Eigen::VectorXd q = scene.initial.q;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  std::vector<Event> events;
  EventLog log = [this](const Event& e) { events.push_back(e); };
  double mass() const { return sys.model.bodies[0].mass; }
  // The acceleration LCP's choice alone, before the slip start.
  ContactModes lcp_modes() {
    compute_event_data(sys, modes, q, v, data);
    compute_contact_jdot_v(sys.model, sys.contacts, data.body, data.frames, std::vector<bool>{true}, data.jac);
    ContactModes chosen = modes;
    std::string why;
    EXPECT_TRUE(select_modes(sys.contacts, sys.contact, data.body, data.jac, {0}, {}, chosen, why)) << why;
    return chosen;
  }
};

TEST(SlipStart, TheFrameIsTheOneTheTestAssumes) {
  TiltedBall b(0.05);
  compute_event_data(b.sys, b.modes, b.q, b.v, b.data);
  EXPECT_NEAR(b.data.frames[0].tangent1.dot(Vec3::UnitX()), 1.0, 1e-12);
  EXPECT_NEAR(b.data.frames[0].tangent2.dot(Vec3::UnitY()), 1.0, 1e-12);
}

TEST(SlipStart, ABallSlidingFromRestSlidesDownTheIncline) {
  const double mu = 0.05;
  TiltedBall b(mu);
  // The polygon's slip is a facet's normal (22.5 degrees), not the incline's 10 degrees.
  const ContactModes lcp = b.lcp_modes();
  ASSERT_EQ(lcp.mode[0], ContactMode::slide);
  EXPECT_GT((lcp.slip[0] - b.direction).norm(), 0.1);
  choose_modes(b.sys, 0.0, {}, {}, b.v, b.modes, b.data, b.forces, b.log);
  ASSERT_EQ(b.modes.mode[0], ContactMode::slide);
  EXPECT_NEAR((b.modes.slip[0] - b.direction).norm(), 0.0, 1e-9);
  // The phase's contact acceleration is along s at the closed form's rate.
  const Eigen::Vector2d a_t = tangential_acceleration(b.data.jac, 0, b.forces.vdot);
  EXPECT_NEAR((a_t - (b.g_t - 3.5 * mu * b.g_n) * b.direction).norm(), 0.0, 1e-8);
  EXPECT_NEAR(b.forces.lambda_n[0], b.mass() * b.g_n, 1e-8 * b.mass() * b.g_n);
  EXPECT_NEAR(b.forces.lambda_t.row(0).norm(), mu * b.forces.lambda_n[0], 1e-9 * b.forces.lambda_n[0]);
}

TEST(SlipStart, ABallThatTheCircularConeHoldsRolls) {
  // mu 3 % above rolling's 0.1: the inscribed polygon (radius cos 22.5 / cos 12.5 = 0.947 of the
  // cone at 10 degrees) cannot hold it, the cone can.
  TiltedBall b(0.103);
  ASSERT_EQ(b.lcp_modes().mode[0], ContactMode::slide);
  choose_modes(b.sys, 0.0, {}, {}, b.v, b.modes, b.data, b.forces, b.log);
  ASSERT_EQ(b.modes.mode[0], ContactMode::stick);
  const Eigen::Vector2d friction = b.forces.lambda_t.row(0).transpose();
  EXPECT_NEAR((friction + 2.0 / 7.0 * b.mass() * b.g_t * b.direction).norm(), 0.0, 1e-9 * b.mass() * b.g_n);
  const Eigen::Vector2d a_t = tangential_acceleration(b.data.jac, 0, b.forces.vdot);
  EXPECT_LT(a_t.norm(), 1e-9);
}

// A 0.4 x 0.3 x 0.2 m box (500 kg/m^3) on its four bottom corners with friction mu[i], at rest on
// the ground under gravity tilted 0.35 g towards 10 degrees from x.
struct FourCorners {
  explicit FourCorners(const double (&mu)[4]) : scene(scene_of(mu)), sys(scene.system) {
    compute_event_data(sys, modes, scene.initial.q, v, data);
  }
  static Scene scene_of(const double (&mu)[4]) {
    const char* corners[4] = {"[0.2, 0.15, -0.1]", "[-0.2, 0.15, -0.1]", "[-0.2, -0.15, -0.1]",
                              "[0.2, -0.15, -0.1]"};
    std::string text =
        "name: four_corners\n"
        "world:\n"
        "  gravity: [0, 0, -9.81]\n"
        "  shapes:\n"
        "    - {name: ground, type: halfspace, normal: [0, 0, 1]}\n"
        "bodies:\n"
        "  - {name: box, joint: {type: free}, density: 500, shapes: [{name: box_shape, type: box, size: [0.4, 0.3, "
        "0.2]}], initial: {z: 0.1}}\n"
        "contacts:\n";
    for (int i = 0; i < 4; ++i)
      text += "  - {name: c" + std::to_string(i) + ", body: box, point: " + corners[i] + ", with: ground, mu: " +
              std::to_string(mu[i]) + "}\n";
    text += "simulation: {t_end: 1.0}\n";
    Scene out = load_scene_text(text, "four_corners");
    const double beta = 10 * kPi / 180;
    out.system.model.gravity = g_t * Vec3(std::cos(beta), std::sin(beta), 0) - g_n * Vec3::UnitZ();
    return out;
  }
  static constexpr double g_n = 9.81, g_t = 0.35 * 9.81;
  Scene scene;
  const System& sys;
  ContactData data{sys.model, sys.contacts};
  ModeForces forces;
  ContactModes modes = ContactModes::all_open(4);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(sys.model.nv);
  std::vector<Event> events;
  double weight() const { return sys.model.bodies[0].mass * g_n; }
  void choose() {
    choose_modes(sys, 0.0, {}, {}, v, modes, data, forces, [&](const Event& e) { events.push_back(e); });
  }
};

// A box on four corners of different mu (0.05 to 0.2): too little friction to hold it, and unequal
// friction turns it as it goes, so each corner slips its own way, none along g_t (where the
// sticking forces point). Each corner must come out sliding with its contact acceleration along
// its slip (s x a_t = 0, s . a_t > 0), friction -mu lambda_n s, and the weight carried.
TEST(SlipStart, AFourCornerSlideFromRestTurnsEachSlipToItsAcceleration) {
  const double mu[4] = {0.1, 0.2, 0.15, 0.05};
  FourCorners box(mu);
  const System& sys = box.sys;
  ASSERT_EQ(sys.contacts.size(), 4);
  box.choose();
  const ContactModes& modes = box.modes;
  const ModeForces& forces = box.forces;
  const ContactData& data = box.data;
  const double g_n = FourCorners::g_n;
  const double weight = box.weight();
  double spread = 0;  // the largest angle between two corners' slips
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(modes.mode[i], ContactMode::slide) << i;
    const Eigen::Vector2d s = modes.slip[i];
    const Eigen::Vector2d a_t = tangential_acceleration(data.jac, i, forces.vdot);
    EXPECT_NEAR(s[0] * a_t[1] - s[1] * a_t[0], 0.0, 1e-8 * g_n) << i;
    EXPECT_GT(s.dot(a_t), 0.0) << i;
    EXPECT_NEAR((forces.lambda_t.row(i).transpose() + mu[i] * forces.lambda_n[i] * s).norm(), 0.0, 1e-9 * weight) << i;
    for (int j = 0; j < i; ++j) spread = std::max(spread, std::acos(std::min(1.0, s.dot(modes.slip[j]))));
  }
  EXPECT_NEAR(forces.lambda_n.sum(), weight, 1e-9 * weight);
  EXPECT_GT(spread, 0.01);  // the box turns: the slips are not one direction
}

// The same box with one corner (3, at x 0.2, y -0.15) of mu 2 and three of 0.05: the tilt cannot
// slide the rough corner, so the box turns about it while the others slide, each at right angles
// to its arm from the rough corner (corner 0 along x, corner 1 along (0.3, 0.4) / 0.5, corner 2
// along y). From all four sliding from rest, the cone says in one solve which stick and which
// slide, and along those directions. The event's choice then has the rough corner stick with
// a_t = 0 strictly inside its cone and corners 0 and 1 slide along their accelerations (s x a_t
// = 0, k > 0) with friction -mu lambda_n s, the weight carried (corner 2 is redundant: the
// acceleration LCP opens it).
TEST(SlipStart, ABoxTurnsAboutTheCornerTheConeHolds) {
  const double mu[4] = {0.05, 0.05, 0.05, 2.0};
  const double expected[3] = {0.0, std::atan2(0.4, 0.3), kPi / 2};
  FourCorners box(mu);
  ContactModes sliding_modes = box.modes, stuck_modes = box.modes;
  for (int i = 0; i < 4; ++i) {
    sliding_modes.mode[i] = ContactMode::slide;
    stuck_modes.mode[i] = ContactMode::stick;
  }
  compute_contact_jdot_v(box.sys.model, box.sys.contacts, box.data.body, box.data.frames, std::vector<bool>(4, true),
                         box.data.jac);
  ModeForces stuck_forces;
  ASSERT_TRUE(constrained_acceleration(box.sys.contacts, 0.0, box.data.body, box.data.frames, box.data.jac,
                                       stuck_modes, stuck_forces));
  std::vector<int> sliding, stuck;
  Eigen::VectorXd theta;
  ASSERT_TRUE(cone_slips(box.sys, box.data, {0, 1, 2, 3}, stuck_forces, nullptr, sliding_modes, sliding, stuck, theta));
  EXPECT_EQ(stuck, std::vector<int>{3});
  ASSERT_EQ(sliding, (std::vector<int>{0, 1, 2}));
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(theta[a], expected[a], 1e-9) << a;

  box.choose();
  const double weight = box.weight();
  ASSERT_EQ(box.modes.mode[3], ContactMode::stick);
  EXPECT_LT(tangential_acceleration(box.data.jac, 3, box.forces.vdot).norm(), 1e-9 * FourCorners::g_n);
  EXPECT_LT(box.forces.lambda_t.row(3).norm(), 0.99 * mu[3] * box.forces.lambda_n[3]);
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(box.modes.mode[i], ContactMode::slide) << i;
    const Eigen::Vector2d s = box.modes.slip[i];
    EXPECT_NEAR(std::atan2(s[1], s[0]), expected[i], 1e-9) << i;
    const Eigen::Vector2d a_t = tangential_acceleration(box.data.jac, i, box.forces.vdot);
    EXPECT_NEAR(s[0] * a_t[1] - s[1] * a_t[0], 0.0, 1e-8 * FourCorners::g_n) << i;
    EXPECT_GT(s.dot(a_t), 1e-3) << i;
    EXPECT_NEAR((box.forces.lambda_t.row(i).transpose() + mu[i] * box.forces.lambda_n[i] * s).norm(), 0.0,
                1e-9 * weight) << i;
  }
  EXPECT_NEAR(box.forces.lambda_n.sum(), weight, 1e-9 * weight);
}

TEST(SlipStart, ContactsAlreadySlidingAndPlanarOnesAreLeftAsChosen) {
  TiltedBall b(0.05);
  b.v(0) = 0.5;  // sliding along x well above the velocity tolerance
  compute_event_data(b.sys, b.modes, b.q, b.v, b.data);
  compute_contact_jdot_v(b.sys.model, b.sys.contacts, b.data.body, b.data.frames, std::vector<bool>{true}, b.data.jac);
  ContactModes modes = b.modes;
  modes.mode[0] = ContactMode::slide;
  modes.slip[0] = Eigen::Vector2d(0.6, 0.8);
  ASSERT_TRUE(start_slip_from_rest(b.sys, {}, b.v, b.data, modes, b.forces));
  EXPECT_EQ(modes.mode[0], ContactMode::slide);
  EXPECT_EQ(modes.slip[0], Eigen::Vector2d(0.6, 0.8));
}

// Slides slower than half of slow_slip_speed are held (sliding from rest among them); faster
// ones, sticking ones, and every one where slow_slip_speed is 0 are not. The slip here is across s.
TEST(SlipStart, SlidesSlowerThanHalfTheSlowSlipSpeedAreHeld) {
  TiltedBall b(0.05);
  ASSERT_EQ(b.sys.contact.slow_slip_speed, 1e-4);
  const auto held = [&b](double slip, ContactMode mode) {
    b.v.setZero();
    b.v(1) = slip;  // the contact point's slip along tangent2 (y)
    compute_event_data(b.sys, b.modes, b.q, b.v, b.data);
    ContactModes modes = b.modes;
    modes.mode[0] = mode;
    modes.slip[0] = Eigen::Vector2d(1, 0);
    hold_slow_slides(b.sys, b.data, b.v, modes);
    EXPECT_EQ(modes.held.size(), 1u);
    return modes.holds(0);
  };
  EXPECT_TRUE(held(0.0, ContactMode::slide));
  EXPECT_TRUE(held(0.49e-4, ContactMode::slide));
  EXPECT_FALSE(held(0.51e-4, ContactMode::slide));
  EXPECT_FALSE(held(0.0, ContactMode::stick));
  b.scene.system.contact.slow_slip_speed = 0.0;
  EXPECT_FALSE(held(0.0, ContactMode::slide));
}

// A held slide's friction is -mu lambda_n s to the bit, whatever way its slip points; a slide that
// follows its slip turns with it: (u_t + blend s) / |u_t + blend s| for a slip of 3e-7 m/s across s
// (and 1e-8 m/s along it) and blend 1e-6 m/s points 16.5 degrees from s.
TEST(SlipStart, AHeldSlidesFrictionDoesNotTurnWithItsSlip) {
  TiltedBall b(0.05);
  b.v(0) = 1e-8;  // u_t . s > 0: a slip the friction could follow
  b.v(1) = 3e-7;
  compute_event_data(b.sys, b.modes, b.q, b.v, b.data);
  compute_contact_jdot_v(b.sys.model, b.sys.contacts, b.data.body, b.data.frames, std::vector<bool>{true}, b.data.jac);
  ContactModes modes = b.modes;
  modes.mode[0] = ContactMode::slide;
  modes.slip[0] = Eigen::Vector2d(1, 0);
  modes.slip_blend = b.sys.contact.velocity_tolerance;
  const auto friction = [&](bool held) {
    modes.held = {held};
    EXPECT_TRUE(constrained_acceleration(b.sys.contacts, 0.0, b.data.body, b.data.frames, b.data.jac, modes, b.forces));
    return Eigen::Vector2d(b.forces.lambda_t.row(0).transpose() / (0.05 * b.forces.lambda_n[0]));
  };
  EXPECT_EQ(friction(true), Eigen::Vector2d(-1, 0));
  const Eigen::Vector2d followed = friction(false), expected = -Eigen::Vector2d(1.01e-6, 3e-7).normalized();
  EXPECT_NEAR((followed - expected).norm(), 0.0, 1e-12);
  EXPECT_NEAR(std::atan2(-followed[1], -followed[0]) * 180 / kPi, 16.54, 0.01);
}

// No Jacobian in closed form: the search takes difference quotients.
const auto no_jacobian = [](const Eigen::VectorXd&, Eigen::MatrixXd&) { return false; };

// The slip-angle search on residuals of its own: a linear one is solved at the first Newton step;
// one with no root (r = theta^2 + 1, smallest at 1) is given up after three iterations that gain
// nothing, not after all fifty (each up to 31 evaluations: about 1,550 before).
TEST(SlipStart, TheAngleSearchSolvesALinearResidual) {
  int evaluations = 0;
  auto linear = [&](const Eigen::VectorXd& angles, Eigen::VectorXd& r, Eigen::VectorXd& k) {
    ++evaluations;
    r = angles - Eigen::Vector2d(0.3, -1.2);
    k.setOnes(2);
    return true;
  };
  Eigen::VectorXd theta = Eigen::Vector2d(0.0, 0.0), r(2), k(2);
  // The difference quotient is good to ~1e-9.
  ASSERT_TRUE(solve_slip_angles(linear, no_jacobian, theta, r, k, 1e-6));
  EXPECT_LT(r.norm(), 1e-6);
  EXPECT_NEAR(theta[0], 0.3, 1e-6);
  EXPECT_NEAR(theta[1], -1.2, 1e-6);
  EXPECT_EQ(evaluations, 1 + 2 + 1);  // the start, the Jacobian's two columns, the full step
}

// With a Jacobian in closed form the same search takes no difference quotients: the start and the
// full step. Where the closed form is refused, the difference quotients take over.
TEST(SlipStart, TheAngleSearchTakesAGivenJacobianInPlaceOfDifferences) {
  int evaluations = 0, jacobians = 0;
  auto linear = [&](const Eigen::VectorXd& angles, Eigen::VectorXd& r, Eigen::VectorXd& k) {
    ++evaluations;
    r = Eigen::Matrix2d{{2.0, 0.5}, {-0.3, 1.0}} * (angles - Eigen::Vector2d(0.3, -1.2));
    k.setOnes(2);
    return true;
  };
  auto exact = [&](const Eigen::VectorXd&, Eigen::MatrixXd& jacobian) {
    ++jacobians;
    jacobian = Eigen::Matrix2d{{2.0, 0.5}, {-0.3, 1.0}};
    return true;
  };
  Eigen::VectorXd theta = Eigen::Vector2d(0.0, 0.0), r(2), k(2);
  ASSERT_TRUE(solve_slip_angles(linear, exact, theta, r, k, 1e-12));
  EXPECT_LT(r.norm(), 1e-12);
  EXPECT_NEAR(theta[0], 0.3, 1e-12);
  EXPECT_NEAR(theta[1], -1.2, 1e-12);
  EXPECT_EQ(evaluations, 1 + 1);
  EXPECT_EQ(jacobians, 1);
  evaluations = 0;
  theta.setZero();
  ASSERT_TRUE(solve_slip_angles(linear, no_jacobian, theta, r, k, 1e-6));
  EXPECT_NEAR(theta[0], 0.3, 1e-6);
  EXPECT_EQ(evaluations, 1 + 2 + 1);
}

// r = theta^2 + 1 over one angle, its evaluations counted: no root, smallest at theta = 0.
struct RootlessResidual {
  int evaluations = 0;
  bool operator()(const Eigen::VectorXd& angles, Eigen::VectorXd& r, Eigen::VectorXd& k) {
    ++evaluations;
    r.setConstant(1, angles[0] * angles[0] + 1.0);
    k.setOnes(1);
    return true;
  }
};

TEST(SlipStart, TheAngleSearchGivesUpWhereItGainsNothing) {
  RootlessResidual rootless;
  int& evaluations = rootless.evaluations;
  Eigen::VectorXd theta = Eigen::VectorXd::Constant(1, 1.0), r(1), k(1);
  ASSERT_TRUE(solve_slip_angles(rootless, no_jacobian, theta, r, k, 1e-9));
  EXPECT_GE(r.norm(), 1.0);
  EXPECT_LE(evaluations, 1 + 4 * 31);  // the first iteration reaches theta = 0; three more gain nothing
}

// The search after the cone's answer runs on a budget in a large model: the rootless residual
// above, given 5 evaluations over every round of the search, is evaluated 5 times in all; the round
// that runs out fails with the budget exhausted, and a later round fails at once. Without a budget
// (a small model's) the search gives up as above, its residual not exhausted.
TEST(SlipStart, TheSearchStopsWhereItsBudgetRunsOut) {
  EXPECT_EQ(slip_search_budget(47, 17), 0);  // 7 free bodies and a joint: no limit
  EXPECT_EQ(slip_search_budget(48, 17), 42);
  RootlessResidual rootless;
  int& evaluations = rootless.evaluations;
  Eigen::VectorXd theta = Eigen::VectorXd::Constant(1, 1.0), r(1), k(1);
  ResidualBudget budgeted(rootless, 5);
  EXPECT_FALSE(solve_slip_angles(budgeted, no_jacobian, theta, r, k, 1e-9));
  EXPECT_TRUE(budgeted.exhausted());
  EXPECT_EQ(evaluations, 5);
  EXPECT_FALSE(solve_slip_angles(budgeted, no_jacobian, theta, r, k, 1e-9));  // the next round
  EXPECT_EQ(evaluations, 5);
  ResidualBudget unlimited(rootless, 0);
  theta.setConstant(1.0);
  evaluations = 0;
  EXPECT_TRUE(solve_slip_angles(unlimited, no_jacobian, theta, r, k, 1e-9));
  EXPECT_FALSE(unlimited.exhausted());
  EXPECT_GT(evaluations, 5);
  EXPECT_EQ(unlimited.used(), evaluations);
}

}  // namespace
}  // namespace impactsim
