// The `materials` and `contacts` sections: point contacts, shapes expanded to their named features,
// friction and restitution resolved per contact, per body pair, else per scene; only_ahead_of.
#include <gtest/gtest.h>

#include <cmath>

#include "scenes/scene.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

TEST(SceneContacts, ShapeContactsExpandToFeaturesWithMaterials) {
  const Scene s = load_scene_text(R"(
world:
  shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]
bodies:
  - name: crate
    joint: {type: free}
    density: 100
    shapes: [{name: crate_shape, type: box, size: [2, 4, 6], position: [0, 0, 1]}]
    initial: {z: 3}
  - name: pill
    joint: {type: free}
    density: 100
    shapes: [{name: pill_shape, type: capsule, radius: 0.1, length: 1}]
    initial: {x: 5, z: 1}
materials:
  mu: 0.3
  e: 0.1
  pairs:
    - {bodies: [world, pill], mu: 0.9}
contacts:
  - {name: c, shape: crate_shape, with: ground}
  - {name: p, shape: pill_shape, with: ground, e: 0.5}
simulation:
  t_end: 1
  seed: 42
  contact: {v_zeno: 0.01, friction_directions: 16, friction_cone: polygon}
)", "crate.yaml");
  ASSERT_EQ(s.system.contacts.contacts().size(), 10u);
  EXPECT_EQ(s.system.contacts.contact(0).name, "c.-x-y-z");
  EXPECT_EQ(s.system.contacts.contact(0).point, Vec3(-1, -2, -2));  // the shape sits 1 m up in the body frame
  EXPECT_EQ(s.system.contacts.contact(7).name, "c.+x+y+z");
  EXPECT_DOUBLE_EQ(s.system.contacts.contact(0).mu, 0.3);
  EXPECT_DOUBLE_EQ(s.system.contacts.contact(0).e, 0.1);
  EXPECT_EQ(s.system.contacts.contact(8).name, "p.0");
  EXPECT_EQ(s.system.contacts.contact(8).point, Vec3(0, 0, -0.5));
  EXPECT_DOUBLE_EQ(s.system.contacts.contact(8).radius, 0.1);
  EXPECT_DOUBLE_EQ(s.system.contacts.contact(9).mu, 0.9);  // the pair's friction
  EXPECT_DOUBLE_EQ(s.system.contacts.contact(9).e, 0.5);   // the contact's own restitution
  EXPECT_EQ(s.seed, 42u);
  EXPECT_DOUBLE_EQ(s.system.contact.v_zeno, 0.01);
  EXPECT_EQ(s.system.contact.friction_directions, 16);
  EXPECT_FALSE(s.system.contact.circular_cone);
  EXPECT_TRUE(ContactSettings{}.circular_cone);  // the default
}

const char* const kPlanarBox = R"(
world:
  shapes: [{name: floor, type: halfspace, normal: [0, 1, 0]}]
bodies:
  - {name: b, joint: {type: planar}, mass: 1, shapes: [{name: brick, type: box, size: [2, 1, 1]}], initial: {y: 0.5}}
contacts:
  - {name: k, shape: brick, with: floor}
  - {name: tip, body: b, point: [1, 0, 0], with: floor, only_ahead_of: k.-x-y}
simulation: {t_end: 1}
)";

TEST(SceneContacts, PlanarBoxHasItsFourInPlaneCornersAndGatedPointsNameTheirLeader) {
  const Scene s = load_scene_text(kPlanarBox, "planar_box.yaml");
  const ContactModel& c = s.system.contacts;
  ASSERT_EQ(c.size(), 5);
  EXPECT_EQ(c.contact(0).name, "k.-x-y");
  EXPECT_EQ(c.contact(0).point, Vec3(-1, -0.5, 0));
  EXPECT_EQ(c.contact(3).name, "k.+x+y");
  EXPECT_EQ(c.contact(4).only_ahead_of, 0);
  EXPECT_EQ(c.contact(0).only_ahead_of, -1);
  EXPECT_EQ(c.body_b(4), -1);  // the floor belongs to the world
}

TEST(SceneContacts, MistakesAreLocated) {
  auto error = [](const std::string& from, const std::string& to) {
    std::string text = kPlanarBox;
    text.replace(text.find(from), from.size(), to);
    try {
      load_scene_text(text, "planar_box.yaml");
    } catch (const SceneError& e) {
      return e.key() + ": " + e.message();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error("only_ahead_of: k.-x-y", "only_ahead_of: tip"), "contacts[1].only_ahead_of: a contact cannot be ahead of itself");
  EXPECT_EQ(error("only_ahead_of: k.-x-y", "only_ahead_of: nobody"), "contacts[1].only_ahead_of: unknown contact 'nobody'");
  EXPECT_EQ(error("with: floor, only", "with: flor, only"),
            "contacts[1].with: unknown shape 'flor' (shapes are named by their `name` key, or <body>_<index>)");
  EXPECT_EQ(error("{name: tip, body", "{name: k.+x+y, body"), "contacts[1].name: duplicate contact name 'k.+x+y'");
  EXPECT_EQ(error("shape: brick, with: floor}", "shape: floor, with: brick}"),
            "contacts[0].shape: a halfspace has no contact points; put it on the `with` side");
}

// `collide`: contacts from the shapes of the bodies named, with the usual materials and per-pair
// overrides; `all` leaves out bodies joined by a revolute (or prismatic, fixed) joint.
constexpr const char* kCollide = R"(
world:
  shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]
bodies:
  - {name: base, joint: {type: free}, density: 100, shapes: [{name: base_box, type: box, size: [1, 1, 1]}], initial: {z: 0.5}}
  - {name: arm, parent: base, joint: {type: revolute, origin: [0, 0, 1]}, density: 100,
     shapes: [{name: arm_box, type: box, size: [0.2, 0.2, 1]}]}
  - {name: ball, joint: {type: free}, density: 100, shapes: [{name: ball_shape, type: sphere, radius: 0.1}], initial: {x: 3, z: 1}}
materials:
  mu: 0.3
  pairs: [{bodies: [ball, world], e: 0.5}]
collide: all
simulation: {t_end: 1}
)";

std::vector<std::string> contact_names(const Scene& s) {
  std::vector<std::string> out;
  for (const ContactDef& c : s.system.contacts.contacts()) out.push_back(c.name);
  return out;
}

TEST(SceneContacts, CollideAllMakesEveryPairsContactsButJointedOnes) {
  const Scene s = load_scene_text(kCollide, "collide.yaml");
  // ground: 8 + 8 + 1; base-arm is jointed; base-ball 1, arm-ball 1.
  ASSERT_EQ(s.system.contacts.size(), 19);
  const std::vector<std::string> n = contact_names(s);
  EXPECT_EQ(n[0], "base_box.-x-y-z@ground");
  EXPECT_EQ(n[8], "arm_box.-x-y-z@ground");
  EXPECT_EQ(n[16], "ball_shape@ground");
  EXPECT_EQ(n[17], "ball_shape@base_box");
  EXPECT_EQ(n[18], "ball_shape@arm_box");
  EXPECT_EQ(s.system.contacts.contact(16).e, 0.5);
  EXPECT_EQ(s.system.contacts.contact(16).mu, 0.3);
  EXPECT_EQ(s.system.contacts.contact(17).e, 0.0);
}

TEST(SceneContacts, CollidePairsTakeTheirOwnMaterialsAndFollowListedContacts) {
  std::string text = kCollide;
  text.replace(text.find("collide: all"), 12,
               "contacts: [{name: tip, body: arm, point: [0, 0, 0.5], with: ground}]\n"
               "collide:\n  - {bodies: [ball, world], mu: 0.9}\n  - {bodies: [arm, base], e: 0.2}");
  const Scene s = load_scene_text(text, "collide.yaml");
  const std::vector<std::string> n = contact_names(s);
  ASSERT_EQ(n.size(), 18u);  // tip, the ball on the ground, 16 box corners
  EXPECT_EQ(n[0], "tip");
  EXPECT_EQ(n[1], "ball_shape@ground");
  EXPECT_EQ(s.system.contacts.contact(1).mu, 0.9);
  EXPECT_EQ(s.system.contacts.contact(1).e, 0.5);
  EXPECT_EQ(n[2], "arm_box.-x-y-z@base_box");
  EXPECT_EQ(s.system.contacts.contact(2).e, 0.2);
  EXPECT_EQ(s.system.contacts.contact(2).mu, 0.3);
}

// A cone (FCL's convention, the origin halfway up its axis) gets its mass from its shape and one
// shape-pair contact with the ground.
TEST(SceneContacts, ACone) {
  const Scene s = load_scene_text(R"(
world:
  shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]
bodies:
  - {name: top, joint: {type: free}, density: 1000, shapes: [{name: cone, type: cone, radius: 0.1, length: 0.3}],
     initial: {z: 1}}
collide: all
simulation: {t_end: 1}
)", "cone.yaml");
  const Body& b = s.system.model.bodies[0];
  EXPECT_NEAR(b.mass, 1000 * std::acos(-1.0) * 0.01 * 0.3 / 3, 1e-12);
  EXPECT_NEAR(b.com.z(), -0.075, 1e-15);
  ASSERT_EQ(s.system.contacts.size(), 1);
  EXPECT_EQ(s.system.contacts.contact(0).name, "cone@ground");
  EXPECT_EQ(s.system.contacts.contact(0).geometry_a, 1);  // the world's ground is geometry 0
}

TEST(SceneContacts, CollideMistakesAreLocated) {
  auto error = [](const std::string& to) {
    std::string text = kCollide;
    text.replace(text.find("collide: all"), 12, to);
    try {
      load_scene_text(text, "collide.yaml");
    } catch (const SceneError& e) {
      return e.key() + ": " + e.message();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error("collide: some"), "collide: expected `all` or a list of {bodies: [a, b]} entries");
  EXPECT_EQ(error("collide: [{bodies: [ball, ball]}]"), "collide[0].bodies: a body does not collide with itself");
  EXPECT_EQ(error("collide: [{bodies: [ball]}]"), "collide[0].bodies: expected two body names");
  EXPECT_EQ(error("collide: [{bodies: [ball, nobody]}]"), "collide[0].bodies[1]: unknown body 'nobody'");
  EXPECT_EQ(error("collide: [{bodies: [ball, base]}, {bodies: [base, ball]}]"),
            "collide[1].bodies: this pair is listed twice");
  EXPECT_EQ(error("collide: [{bodies: [ball, world], e: 2}]"), "collide[0].e: restitution must be between 0 and 1, found 2");
  EXPECT_EQ(error("collide: [{bodies: [ball, world], friction: 2}]").substr(0, 30), "collide[0].friction: unknown k");
  // Shape names may hold '.' and '-', so a sphere can be named like a box's corner.
  std::string text = kCollide;
  text.replace(text.find("name: ball_shape"), 16, "name: base_box.-x-y-z");
  try {
    load_scene_text(text, "collide.yaml");
    ADD_FAILURE() << "accepted";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.key() + ": " + e.message(), "collide: two contacts are named 'base_box.-x-y-z@ground'; name the shapes apart");
  }
}

}  // namespace
}  // namespace impactsim
