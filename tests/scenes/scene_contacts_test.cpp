// The `materials` and `contacts` sections: point contacts, shapes expanded to their named features,
// friction and restitution resolved per contact, per body pair, else per scene; only_ahead_of.
#include <gtest/gtest.h>

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
  contact: {v_zeno: 0.01, friction_directions: 16}
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

}  // namespace
}  // namespace impactsim
