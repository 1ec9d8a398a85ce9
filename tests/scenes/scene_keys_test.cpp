// The declared scene keys (scenes/scene_keys.cpp) are what scenes/README.md documents, and every one
// of them is read: a scene that gives any declared key a value no key accepts fails with an error
// located at that key.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "scenes/scene.hpp"
#include "scenes/scene_keys.hpp"

namespace impactsim {
namespace {

std::string readme() {
  std::ifstream in(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/README.md");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(SceneKeys, ReadmeShowsEverySectionsDeclaredTable) {
  const std::string text = readme();
  for (std::string_view section : scene_sections())
    EXPECT_NE(text.find(section_table(section)), std::string::npos)
        << "scenes/README.md must show section '" << section << "' as:\n" << section_table(section);
}

TEST(SceneKeys, SectionsHoldUniqueKeysAndVariantsFilterThem) {
  for (std::string_view section : scene_sections()) {
    const std::vector<std::string> keys = section_keys(section);
    EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), keys.size()) << section;
  }
  EXPECT_EQ(section_keys("shapes", "box"), (std::vector<std::string>{"type", "name", "position", "rpy_deg", "size"}));
  EXPECT_EQ(section_keys("bodies.joint", "planar"), (std::vector<std::string>{"type", "origin", "rpy_deg"}));
  EXPECT_EQ(section_keys("bodies.joint", "revolute").back(), "damping");
}

// Where the scene below pretends to live: its mesh file is found relative to it.
const std::string kKeysFile = std::string(IMPACTSIM_SOURCE_DIR) + "/tests/scenes/keys.yaml";

// A scene that sets every declared key (an entry of each list section, a shape of each type).
const char* const kEverything = R"(
name: keys
description: every key
world:
  gravity: [0, 0, -9.81]
  planar: false
  shapes:
    - {name: ground, type: halfspace, normal: [0, 0, 1], offset: 0, position: [0, 0, 0], rpy_deg: [0, 0, 0]}
robot: {urdf: ../../scenes/robots/compass_gait_3d.urdf, base: fixed, mesh_hull: false, initial: {left_leg: {theta: 0.1}}, damping: {left_leg: 0.2},
        mass: {left_leg: 4}}
bodies:
  - name: b
    parent: world
    joint: {type: prismatic, origin: [0, 0, 1], rpy_deg: [0, 0, 0], axis: [0, 0, 1], damping: 0.1}
    mass: 1
    inertia: [1, 1, 1]
    com: [0, 0, 0]
    shapes:
      - {name: ball, type: sphere, radius: 0.1}
      - {name: brick, type: box, size: [0.1, 0.1, 0.1]}
      - {name: can, type: cylinder, radius: 0.1, length: 0.2}
      - {name: gem, type: convex, vertices: [[0, 0, 0], [0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]]}
      - {name: part, type: mesh, file: ../../scenes/meshes/chamfered_box.obj, hull: false}
    initial: {s: 0}
materials: {mu: 0.5, e: 0, pairs: [{bodies: [b, world], mu: 0.5, e: 0}]}
contacts:
  - {name: c, body: b, point: [0, 0, 0], radius: 0.1, with: ground, mu: 0.5, e: 0}
collide: [{bodies: [b, world], mu: 0.5, e: 0}]
constraints:
  - {name: p, type: pin, body: b, point: [0, 0, 0], to: world, at: [0, 0, 1]}
randomize: {b.s: {uniform: [0, 0.1]}}
outcomes: [{name: o, final: b.s}]
simulation:
  t_end: 1
  output_interval: 0.1
  rtol: 1.0e-8
  atol: 1.0e-10
  max_step: 0
  initial_step: 0.001
  max_steps: 1000
  law: routh
  seed: 1
  contact: {distance_tolerance: 1.0e-6, velocity_tolerance: 1.0e-6, v_zeno: 0.001, detect_rest: true, sleep: true,
            max_events: 100, baumgarte: 20, broadphase_margin: 0.05, broadphase_horizon: 0.02, friction_directions: 8,
            painleve_step: 1.0e-4, painleve_step_max: 8.0e-4, slow_slip_speed: 1.0e-4}
  routh: {h: 0.1, steps: 10, sampling: uniform, solution: lemke}
  sequential: {order: cyclic, start: c, list: [c], max_impacts: 10}
  propagative: {R: 0.5, order: random, max_reflections: 10}
  integrator: time-stepping
  time_stepping: {scheme: trapezoidal, h: 0.01, active_epsilon: 0}
  drumwright: {h: 0.01, problem: lcp, cone: polyhedral, K_n: 1.0e10, B_n: 1, B_t: 1.0e8, K_pin: 1.0e15, B_pin: 1,
               gdot_term: true, zeta: 100}
output: {directory: out/keys, precision: 6}
)";

// The node holding a section's keys in kEverything, for a key that applies to `variant`.
YAML::Node section_node(YAML::Node root, std::string_view section, std::string_view only, std::string& path) {
  const std::string s(section);
  if (s.empty()) return root;
  if (s == "bodies") return path = "bodies[0]", root["bodies"][0];
  if (s == "bodies.joint") return path = "bodies[0].joint", root["bodies"][0]["joint"];
  if (s == "materials.pairs") return path = "materials.pairs[0]", root["materials"]["pairs"][0];
  if (s == "contacts" || s == "collide" || s == "constraints" || s == "outcomes") return path = s + "[0]", root[s][0];
  if (s == "randomize.<coordinate>") return path = "randomize.b.s", root["randomize"]["b.s"];
  if (s == "shapes") {
    if (only.starts_with("halfspace")) return path = "world.shapes[0]", root["world"]["shapes"][0];
    const int k = only.starts_with("box")        ? 1
                  : only.starts_with("cylinder") ? 2
                  : only.starts_with("convex")   ? 3
                  : only.starts_with("mesh")     ? 4
                                                 : 0;
    return path = "bodies[0].shapes[" + std::to_string(k) + "]", root["bodies"][0]["shapes"][k];
  }
  path = s;
  YAML::Node node = root;
  for (size_t start = 0, dot; start != std::string::npos; start = dot == std::string::npos ? dot : dot + 1) {
    dot = s.find('.', start);
    node.reset(node[s.substr(start, dot == std::string::npos ? std::string::npos : dot - start)]);
  }
  return node;
}

TEST(SceneKeys, TheBaseSceneLoads) { EXPECT_NO_THROW(load_scene_text(kEverything, kKeysFile)); }

TEST(SceneKeys, EveryDeclaredKeyIsRead) {
  // Keys of which an entry takes exactly one: testing one, the others go.
  const std::vector<std::set<std::string>> exclusive{{"uniform", "normal"}, {"final", "closed", "impacts", "lifts", "first_lift"}};
  for (const SceneKey& k : scene_keys()) {
    YAML::Node root = YAML::Load(kEverything);
    std::string path;
    YAML::Node node = section_node(root, k.section, k.only, path);
    const std::string key(k.key);
    for (const auto& group : exclusive)
      if (group.count(key))
        for (const std::string& other : group)
          if (other != key) node.remove(other);
    node[key] = YAML::Load("[[]]");  // a list holding a list: no key takes it
    YAML::Emitter out;
    out << root;
    const std::string where = path.empty() ? key : path + "." + key;
    try {
      load_scene_text(out.c_str(), kKeysFile);
      ADD_FAILURE() << where << " = [[]] was accepted: the loader does not read it";
    } catch (const SceneError& e) {
      EXPECT_EQ(e.key().rfind(where, 0), 0u) << where << ": the error is at " << e.key() << ": " << e.message();
    }
  }
}

}  // namespace
}  // namespace impactsim
