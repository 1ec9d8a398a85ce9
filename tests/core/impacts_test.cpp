// The impacts of an event: handed to the law, island by island, the Zeno rule's close and plastic
// impact against closed forms, and which contacts leave separating.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/impacts.hpp"
#include "impact/laws.hpp"
#include "numerics/mass_factor.hpp"
#include "scenes/scene.hpp"
#include "tests/core/ball_event.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(Impacts, AnImpactGoesToTheLaw) {
  Ball b;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v(2) = -2.0;
  compute_event_data(b.sys, b.modes, b.q, v, b.data);
  Rng rng(0);
  double fastest = 0.5;  // raised to the collision's approach, never lowered
  resolve_impacts(b.sys, *make_law("anitescu-potra"), rng, 0.3, b.modes, {}, v, b.data, b.log, &fastest);
  EXPECT_NEAR(fastest, 2.0, 1e-12);
  EXPECT_NEAR(v(2), 0.9 * 2.0, 1e-9);  // Newton's restitution
  ASSERT_EQ(b.events.size(), 1u);
  const Event& e = b.events[0];
  EXPECT_EQ(e.kind, EventKind::impact);
  EXPECT_EQ(e.t, 0.3);
  EXPECT_EQ(e.contacts, std::vector<int>{0});
  EXPECT_EQ(e.law, "anitescu-potra");
  const double m = b.scene.system.model.bodies[0].mass;
  EXPECT_NEAR(e.impulse_n[0], m * 1.9 * 2.0, 1e-9);
  EXPECT_NEAR(e.kinetic_after / e.kinetic_before, 0.81, 1e-9);
  ASSERT_EQ(e.normal_velocity_after.size(), 1u);
  EXPECT_NEAR(e.normal_velocity_after[0], 1.8, 1e-9);  // leaves the ground separating
}

// Unit boxes (density 1) standing on the ground at x = -2, 2 and 3: the last two touch
// face to face. `only_a` keeps the first alone.
std::string three_boxes(bool only_a) {
  std::string text = R"(
world:
  gravity: [0, 0, -9.81]
  shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]
bodies:
  - {name: a, joint: {type: free}, density: 1, shapes: [{name: a, type: box, size: [1, 1, 1]}], initial: {x: -2, z: 0.5}}
)";
  if (!only_a)
    text += R"(  - {name: b, joint: {type: free}, density: 1, shapes: [{name: b, type: box, size: [1, 1, 1]}], initial: {x: 2, z: 0.5}}
  - {name: c, joint: {type: free}, density: 1, shapes: [{name: c, type: box, size: [1, 1, 1]}], initial: {x: 3, z: 0.5}}
)";
  return text + "materials: {mu: 0.5, e: 0}\ncollide: all\nsimulation: {t_end: 1}\n";
}

// One impact over bodies that share no contact is resolved island by island: box a, landing beside
// the pair b-c, gets exactly the impulses and velocity it gets landing alone, and the pair's impact
// (their shared contacts included) leaves no contact approaching and no energy gained.
TEST(Impacts, AnImpactIsResolvedIslandByIsland) {
  const Vec6 v_a = (Vec6() << 0.3, 0.1, -1.0, 0.2, -0.1, 0.05).finished();
  auto land = [&](bool only_a, std::vector<Event>& events, const char* law = "anitescu-potra") {
    const Scene scene = load_scene_text(three_boxes(only_a), "three_boxes");
    const System& sys = scene.system;
    ContactData data(sys.model, sys.contacts);
    Eigen::VectorXd v = Eigen::VectorXd::Zero(sys.model.nv);
    v.head(6) = v_a;
    if (!only_a) v.segment(6, 6) << 0.2, 0, -0.8, 0, 0.3, 0;  // b slides into c as both land
    const ContactModes modes = ContactModes::all_open(sys.contacts.size());
    compute_event_data(sys, modes, scene.initial.q, v, data);
    Rng rng(0);
    resolve_impacts(sys, *make_law(law), rng, 0.1, modes, {}, v, data,
                    [&](const Event& e) { events.push_back(e); });
    for (int i = 0; i < sys.contacts.size(); ++i) {
      if (data.frames[i].phi <= sys.contact.distance_tolerance) {
        EXPECT_GE(data.jac.normal_velocity(i, v), -1e-6) << law << " " << sys.contacts.contact(i).name;
      }
    }
    return std::pair{v, sys.contacts};
  };
  std::vector<Event> alone, together;
  const auto [v_alone, contacts_alone] = land(true, alone);
  const auto [v_together, contacts] = land(false, together);
  ASSERT_EQ(alone.size(), 1u);
  ASSERT_GE(together.size(), 1u);
  const Event& e = together[0];
  EXPECT_EQ(e.kind, EventKind::impact);
  EXPECT_LE(e.kinetic_after, e.kinetic_before);
  // a's contacts come first in both events, in the same order, with the same impulses.
  const size_t n_a = alone[0].contacts.size();
  ASSERT_EQ(n_a, 4u);  // a's bottom corners
  for (size_t k = 0; k < n_a; ++k) {
    EXPECT_EQ(contacts.contact(e.contacts[k]).name, contacts_alone.contact(alone[0].contacts[k]).name);
    EXPECT_EQ(e.impulse_n[k], alone[0].impulse_n[k]) << k;
  }
  EXPECT_EQ(v_together.head(6), v_alone.head(6));
  bool pair_contact = false;  // b and c touch each other in the event
  for (int i : e.contacts) pair_contact = pair_contact || contacts.contact(i).name.find("@c") != std::string::npos ||
                                              contacts.contact(i).name.find("@b") != std::string::npos;
  EXPECT_TRUE(pair_contact);
  EXPECT_NE(v_together.segment(12, 6), Eigen::VectorXd::Zero(6));  // c is pushed by b
  // A sequential impact's order names the event's own contacts, whichever island each came from.
  std::vector<Event> sequential;
  land(false, sequential, "sequential");
  ASSERT_GE(sequential.size(), 1u);
  EXPECT_FALSE(sequential[0].ordering.empty());
  for (int i : sequential[0].ordering)
    EXPECT_NE(std::find(sequential[0].contacts.begin(), sequential[0].contacts.end(), i), sequential[0].contacts.end()) << i;
}

TEST(Impacts, ASlowImpactIsClosedByTheZenoRule) {
  Ball b;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v << 1e-4, 0, -5e-4, 0, 0, 0;  // slower than v_zeno = 1e-3 m/s, and sliding a little
  compute_event_data(b.sys, b.modes, b.q, v, b.data);
  Rng rng(0);
  double fastest = 0.0;
  resolve_impacts(b.sys, *make_law("anitescu-potra"), rng, 1.0, b.modes, {}, v, b.data, b.log, &fastest);
  EXPECT_EQ(fastest, 0.0);  // a Zeno close is no collision
  ASSERT_EQ(b.events.size(), 1u);
  EXPECT_EQ(b.events[0].kind, EventKind::zeno);
  EXPECT_EQ(b.events[0].law, "close");
  EXPECT_LT((b.data.jac.of(0) * v).norm(), 1e-15);  // closed: no normal or tangential velocity at the contact
  ASSERT_EQ(b.events[0].normal_velocity_after.size(), 1u);
  EXPECT_LT(std::abs(b.events[0].normal_velocity_after[0]), 1e-15);
  EXPECT_LE(b.events[0].kinetic_after, b.events[0].kinetic_before);
}

// The Zeno rule's close over bodies that share no contact is taken island by island: box a,
// settling slowly beside the pair b-c, gets the same close as alone (impulses and velocity), and
// the pair's contacts are closed too, with no energy gained.
TEST(Impacts, ASlowImpactIsClosedIslandByIsland) {
  auto settle = [](bool only_a, std::vector<Event>& events) {
    const Scene scene = load_scene_text(three_boxes(only_a), "three_boxes");
    const System& sys = scene.system;
    ContactData data(sys.model, sys.contacts);
    Eigen::VectorXd v = Eigen::VectorXd::Zero(sys.model.nv);
    v.head(6) << 1e-4, -5e-5, -5e-4, 2e-4, -1e-4, 5e-5;  // slower than v_zeno = 1e-3 m/s
    if (!only_a) v.segment(6, 6) << 1e-4, 0, -3e-4, 0, 1e-4, 0;  // b creeps into c as both settle
    const ContactModes modes = ContactModes::all_open(sys.contacts.size());
    compute_event_data(sys, modes, scene.initial.q, v, data);
    Rng rng(0);
    resolve_impacts(sys, *make_law("anitescu-potra"), rng, 0.1, modes, {}, v, data,
                    [&](const Event& e) { events.push_back(e); });
    for (int i = 0; i < sys.contacts.size(); ++i) {
      if (data.frames[i].phi <= sys.contact.distance_tolerance) {
        EXPECT_GE(data.jac.normal_velocity(i, v), -1e-15) << sys.contacts.contact(i).name;
      }
    }
    return v;
  };
  std::vector<Event> alone, together;
  const Eigen::VectorXd v_alone = settle(true, alone), v_together = settle(false, together);
  ASSERT_EQ(alone.size(), 1u);
  ASSERT_EQ(together.size(), 1u);
  const Event& e = together[0];
  EXPECT_EQ(e.kind, EventKind::zeno);
  EXPECT_EQ(e.law, "close");
  EXPECT_LE(e.kinetic_after, e.kinetic_before);
  ASSERT_EQ(alone[0].contacts.size(), 4u);  // a's bottom corners, first in both events
  for (size_t k = 0; k < 4; ++k) EXPECT_EQ(e.impulse_n[k], alone[0].impulse_n[k]) << k;
  EXPECT_EQ(v_together.head(6), v_alone.head(6));
  EXPECT_GT(e.contacts.size(), 8u);  // b's and c's corners and their shared face too
  EXPECT_LT(v_together.tail(12).norm(), 1e-4);  // the pair's slow motion is mostly stopped
}

// project_to_rest over contacts of two islands (box a's bottom corners, box b's) is each island's
// projection: the same velocities, impulses in set's order and summed row-wise loss, with the
// tangent rows left out where `tangential` says; every projected row ends at rest.
TEST(Impacts, AProjectionToRestIsTakenIslandByIsland) {
  const Scene scene = load_scene_text(three_boxes(false), "three_boxes");
  const System& sys = scene.system;
  ContactData data(sys.model, sys.contacts);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(sys.model.nv);
  v.head(12) << 1e-4, -5e-5, -5e-4, 2e-4, -1e-4, 5e-5, 1e-4, 0, -3e-4, 0, 1e-4, 0;
  compute_event_data(sys, ContactModes::all_open(sys.contacts.size()), scene.initial.q, v, data);
  std::vector<int> set_a, set_b;
  for (int i = 0; i < sys.contacts.size(); ++i) {
    const std::string& name = sys.contacts.contact(i).name;
    if (name.find("-z@ground") == std::string::npos) continue;
    if (name.rfind("a.", 0) == 0) set_a.push_back(i);
    if (name.rfind("b.", 0) == 0) set_b.push_back(i);
  }
  ASSERT_EQ(set_a.size(), 4u);
  ASSERT_EQ(set_b.size(), 4u);
  std::vector<int> both = set_b;  // b's first: the result follows set's order, not the islands'
  both.insert(both.end(), set_a.begin(), set_a.end());
  const std::vector<bool> tangential_a{true, false, true, true}, tangential_b{true, true, false, true};
  std::vector<bool> tangential = tangential_b;
  tangential.insert(tangential.end(), tangential_a.begin(), tangential_a.end());
  Eigen::VectorXd v_both = v, v_each = v;
  double loss_both = 0.0, loss_a = 0.0, loss_b = 0.0;
  const Eigen::VectorXd impulse = project_to_rest(data, both, tangential, v_both, &loss_both);
  const Eigen::VectorXd impulse_b = project_to_rest(data, set_b, tangential_b, v_each, &loss_b);
  const Eigen::VectorXd impulse_a = project_to_rest(data, set_a, tangential_a, v_each, &loss_a);
  const int r = data.jac.rows_per_contact;
  EXPECT_EQ(v_both, v_each);
  EXPECT_EQ(impulse.head(4 * r), impulse_b);
  EXPECT_EQ(impulse.tail(4 * r), impulse_a);
  EXPECT_EQ(loss_both, loss_b + loss_a);
  EXPECT_GT(loss_a, 0.0);
  for (size_t k = 0; k < both.size(); ++k) {
    const Eigen::VectorXd u = data.jac.of(both[k]) * v_both;
    EXPECT_NEAR(u[0], 0.0, 1e-15) << k;
    if (tangential[k]) {
      EXPECT_LT(u.tail(r - 1).norm(), 1e-15) << k;
    } else {
      EXPECT_EQ(impulse.segment(static_cast<Eigen::Index>(k) * r + 1, r - 1).norm(), 0.0) << k;
    }
  }
}

// three_boxes with eight more unit boxes falling far away: 66 velocities, enough for the sticking
// impact to be taken island by island.
std::string eleven_boxes() {
  std::string text = three_boxes(false);
  text = text.substr(0, text.find("materials:"));
  for (int k = 0; k < 8; ++k)
    text += "  - {name: d" + std::to_string(k) + ", joint: {type: free}, density: 1, shapes: [{name: d" +
            std::to_string(k) + ", type: box, size: [1, 1, 1]}], initial: {x: " + std::to_string(-20 + 3 * k) +
            ", z: 5}}\n";
  return text + "materials: {mu: 1, e: 0}\ncollide: all\nsimulation: {t_end: 1}\n";
}

// stick_where_possible over the ground corners of three boxes (three islands) is each box's alone,
// where each is a single island solved over every velocity: the same contacts left to stick, the
// same velocities and impulses to rounding, the falling boxes untouched. Box a tips so that its -x
// corners rise: stopping them would pull, so they are left out. Every contact that sticks ends at
// rest, and no energy is gained.
TEST(Impacts, TheStickingImpactIsTakenIslandByIsland) {
  const Scene scene = load_scene_text(eleven_boxes(), "eleven_boxes");
  const System& sys = scene.system;
  ASSERT_GE(sys.model.nv, kBlockwiseFrom);
  ContactData data(sys.model, sys.contacts);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(sys.model.nv);
  v.head(18) << 0.005, 0, -0.004, 0, 0.01, 0,  // a tips about y: its +x corners sink, its -x corners rise
      2e-4, -1e-4, -2e-3, 0, 0, 0,  // b and c slide slowly as they sink
      1e-4, 0, -1e-3, 0, 0, 0;
  v.tail(48).setConstant(-0.3);
  compute_event_data(sys, ContactModes::all_open(sys.contacts.size()), scene.initial.q, v, data);
  std::vector<int> corners, each[3];
  for (int i = 0; i < sys.contacts.size(); ++i) {
    const std::string& name = sys.contacts.contact(i).name;
    if (name.find("-z@ground") == std::string::npos || name[0] > 'c') continue;  // d0..d7 fall far above
    corners.push_back(i);
    each[name[0] - 'a'].push_back(i);
  }
  ASSERT_EQ(corners.size(), 12u);
  std::vector<int> sticking;
  const ImpactResult all = stick_where_possible(sys, data, corners, v, sticking);
  ASSERT_TRUE(all.ok) << all.diagnostic;
  std::vector<int> joined;
  Eigen::VectorXd v_each = v;
  for (int b = 0; b < 3; ++b) {
    std::vector<int> kept;
    const ImpactResult one = stick_where_possible(sys, data, each[b], v, kept);
    ASSERT_TRUE(one.ok) << b << " " << one.diagnostic;
    v_each.segment(6 * b, 6) = one.v_plus.segment(6 * b, 6);
    EXPECT_EQ(one.v_plus.tail(sys.model.nv - 6 * (b + 1)), v.tail(sys.model.nv - 6 * (b + 1))) << b;
    for (size_t k = 0; k < kept.size(); ++k) {
      const size_t at = joined.size() + k;
      ASSERT_LT(at, sticking.size());
      EXPECT_NEAR(all.impulse_n[static_cast<Eigen::Index>(at)], one.impulse_n[static_cast<Eigen::Index>(k)], 1e-12);
      EXPECT_LT((all.impulse_t.segment<2>(2 * at) - one.impulse_t.segment<2>(2 * k)).norm(), 1e-12);
    }
    joined.insert(joined.end(), kept.begin(), kept.end());
  }
  EXPECT_EQ(sticking, joined);
  EXPECT_EQ(each[0].size() - 2, static_cast<size_t>(std::count_if(sticking.begin(), sticking.end(), [&](int i) {
              return sys.contacts.contact(i).name[0] == 'a';
            })));  // a's rising corners are left out
  EXPECT_LT((all.v_plus - v_each).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_EQ(all.v_plus.tail(48), v.tail(48));  // the falling boxes
  EXPECT_LE(all.kinetic_energy_plus, all.kinetic_energy_minus);
  for (int i : sticking) EXPECT_LT((data.jac.of(i) * all.v_plus).norm(), 1e-12) << sys.contacts.contact(i).name;
}

// The Zeno rule is a plastic impact: it may stop slips as slow as the approach it ends, never a
// frictionless contact's slip, and never one friction cannot stop (its impulses stay in the cone).
// A ball landing at 0.5 mm/s (below v_zeno) while sliding at 1 m/s, the slip along the contact's
// first tangent. Frictionless, the projection takes the normal row alone: the slip is untouched and
// no spin is added (a frictionless pile's spheres used to keep spinning after it).
TEST(Impacts, TheZenoRuleLeavesAFrictionlessContactItsSlip) {
  Ball b({parse_override("materials.mu=0")});
  ASSERT_EQ(b.sys.contacts.contact(0).mu, 0.0);
  compute_event_data(b.sys, b.modes, b.q, Eigen::VectorXd::Zero(6), b.data);
  const Eigen::MatrixXd J = b.data.jac.of(0);  // normal, then two tangents
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v.head<3>() = -5e-4 * J.row(0).head<3>().transpose() + 1.0 * J.row(1).head<3>().transpose();  // a ball without spin
  ASSERT_NEAR((J * v - Eigen::Vector3d(-5e-4, 1.0, 0)).norm(), 0, 1e-12);
  const Eigen::VectorXd v_minus = v;
  Rng rng(0);
  resolve_impacts(b.sys, *make_law("anitescu-potra"), rng, 1.0, b.modes, {}, v, b.data, b.log);
  ASSERT_EQ(b.events.size(), 1u);
  EXPECT_EQ(b.events[0].kind, EventKind::zeno);
  EXPECT_EQ(b.events[0].law, "close");
  EXPECT_NEAR((J * v)[0], 0.0, 1e-15);
  EXPECT_NEAR((J * v)[1], 1.0, 1e-12);
  // Only the normal impulse m 5e-4 acted, through the centre: the spin is unchanged.
  EXPECT_NEAR((v - v_minus).tail<3>().norm(), 0.0, 1e-15);
  const double m = b.sys.model.bodies[0].mass;
  EXPECT_NEAR(b.events[0].impulse_n[0], m * 5e-4, 1e-15);
}

// With mu = 0.5 the same landing cannot stop the slip: a plastic impact of normal impulse
// P_n = m 5e-4 buys a friction impulse of mu P_n at most, which slows the slip by
// mu P_n (1/m + r^2/I) = 3.5 mu 5e-4 m/s (a solid sphere, I = 2/5 m r^2). The ball lands sliding.
TEST(Impacts, TheZenoRuleLetsAFastSlideLandSlidingWithFrictionInItsCone) {
  Ball b;
  ASSERT_EQ(b.sys.contacts.contact(0).mu, 0.5);
  compute_event_data(b.sys, b.modes, b.q, Eigen::VectorXd::Zero(6), b.data);
  const Eigen::MatrixXd J = b.data.jac.of(0);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  v.head<3>() = -5e-4 * J.row(0).head<3>().transpose() + 1.0 * J.row(1).head<3>().transpose();  // a ball without spin
  ASSERT_NEAR((J * v - Eigen::Vector3d(-5e-4, 1.0, 0)).norm(), 0, 1e-12);
  const double before = 0.5 * v.dot(b.data.body.M * v);
  Rng rng(0);
  resolve_impacts(b.sys, *make_law("anitescu-potra"), rng, 1.0, b.modes, {}, v, b.data, b.log);
  ASSERT_EQ(b.events.size(), 1u);
  EXPECT_EQ(b.events[0].kind, EventKind::zeno);
  EXPECT_EQ(b.events[0].law, "plastic");
  const double m = b.sys.model.bodies[0].mass;
  EXPECT_NEAR(b.events[0].impulse_n[0], m * 5e-4, 1e-12);
  EXPECT_NEAR((J * v)[0], 0.0, 1e-12);  // closed
  EXPECT_NEAR((J * v)[1], 1.0 - 3.5 * 0.5 * 5e-4, 1e-12);  // still sliding, slowed by friction at the cone's edge
  EXPECT_NEAR((J * v)[2], 0.0, 1e-12);
  EXPECT_LT(b.events[0].kinetic_after, before);
}

// Halm and Posa §5.4.1: the 1 x 2 m block landing flat at sqrt(2 g 0.01) m/s. Resolved one corner at
// a time, A first, it ends rotating about B with A lifting at 0.0930 m/s; the event says so per contact.
// Independently of the figure: rotating about B, A's normal velocity is omega |AB| = sqrt(2 KE+ / I_B) * 1.
TEST(Impacts, TheEventRecordsWhichContactsLeaveSeparating) {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block.yaml");
  scene.laws.of("sequential").set("start", 0L);  // A
  const System& sys = scene.system;
  ContactData data{sys.model, sys.contacts};
  ContactModes modes = ContactModes::all_open(2);
  std::vector<Event> events;
  const EventLog log = [&](const Event& e) { events.push_back(e); };
  const Eigen::VectorXd q = Eigen::Vector3d(0, 1, 0);  // flat on the ground
  Eigen::VectorXd v = Eigen::Vector3d(0, -std::sqrt(2 * 9.81 * 0.01), 0);
  compute_event_data(sys, modes, q, v, data);
  Rng rng(0);
  resolve_impacts(sys, *make_law("sequential", scene.laws), rng, 0.045, modes, {}, v, data, log);
  ASSERT_EQ(events.size(), 1u);
  const Event& e = events[0];
  ASSERT_EQ(e.contacts, (std::vector<int>{0, 1}));
  ASSERT_EQ(e.normal_velocity_after.size(), 2u);
  EXPECT_NEAR(e.normal_velocity_after[0], 0.0930, 5e-5);
  const double I_B = (1.0 * 1.0 + 2.0 * 2.0) / 3.0;  // m (w^2 + h^2) / 3 about a corner, m = 1
  EXPECT_NEAR(e.normal_velocity_after[0], std::sqrt(2 * e.kinetic_after / I_B), 1e-9);
  EXPECT_LT(std::abs(e.normal_velocity_after[1]), 2.2e-6);  // B stays down (the law's tolerance)
}

}  // namespace
}  // namespace impactsim
