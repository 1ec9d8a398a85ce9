// --set KEY=VALUE: overrides applied to the scene document before it is built, validated like the
// file, and reported as the override's own errors.
#include "scenes/scene_overrides.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "scenes/scene.hpp"
#include "scenes/sha256.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

const std::string kRocking = std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block.yaml";

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::vector<SceneOverride> parse(std::initializer_list<const char*> texts) {
  std::vector<SceneOverride> out;
  for (const char* t : texts) out.push_back(parse_override(t));
  return out;
}

// The message of the SceneError that loading with `text` throws, or "" if it loads.
std::string override_error(const char* text) {
  try {
    load_scene(kRocking, parse({text}));
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

TEST(SceneOverrides, OverridesReplaceKeysAsTheFileWouldSetThem) {
  const Scene plain = load_scene(kRocking);
  const Scene set = load_scene(kRocking, parse({"materials.mu=0.25", "simulation.routh={h: 0.1, steps: 20}",
                                                "bodies[0].initial.vx=2", "simulation.t_end=0.5"}));
  for (int i = 0; i < set.system.contacts.size(); ++i) EXPECT_EQ(set.system.contacts.contact(i).mu, 0.25);
  EXPECT_EQ(set.laws.of("routh").number("h"), 0.1);
  EXPECT_EQ(set.laws.of("routh").integer("steps"), 20);
  EXPECT_EQ(set.initial.v[0], 2.0);
  EXPECT_EQ(set.system.simulation.t_end, 0.5);
  EXPECT_EQ(set.system.contacts.contact(0).e, plain.system.contacts.contact(0).e);  // the rest as in the file
  ASSERT_EQ(set.overrides.size(), 4u);
  EXPECT_EQ(set.overrides[1].text(), "simulation.routh={h: 0.1, steps: 20}");
}

TEST(SceneOverrides, ALaterOverrideOfTheSameKeyWins) {
  EXPECT_EQ(load_scene(kRocking, parse({"materials.mu=0.25", "materials.mu=0.5"})).system.contacts.contact(0).mu, 0.5);
}

TEST(SceneOverrides, MissingMapsAreCreated) {
  // The rocking block sets no simulation.contact section.
  const Scene s = load_scene(kRocking, parse({"simulation.contact.v_zeno=0.01"}));
  EXPECT_EQ(s.system.contact.v_zeno, 0.01);
}

TEST(SceneOverrides, TheSceneShaCoversTheOverrides) {
  const std::string text = read_text(kRocking);
  EXPECT_EQ(load_scene(kRocking).text_sha256, sha256_hex(text));
  const Scene set = load_scene(kRocking, parse({"materials.mu=0.25"}));
  EXPECT_EQ(set.text_sha256, sha256_hex(text + "# --set materials.mu=0.25\n"));
  EXPECT_NE(set.text_sha256, load_scene(kRocking, parse({"materials.mu=0.5"})).text_sha256);
}

TEST(SceneOverrides, BadOverridesAreTheirOwnLocatedErrors) {
  EXPECT_EQ(override_error("materials.mu=abc"), "--set materials.mu=abc: materials.mu: expected a number, found 'abc'");
  EXPECT_EQ(override_error("materials.mu=-1").rfind("--set materials.mu=-1: materials.mu: ", 0), 0u) << override_error("materials.mu=-1");
  EXPECT_EQ(override_error("materials.muu=1").rfind("--set materials.muu=1: materials.muu: unknown key 'muu'", 0), 0u)
      << override_error("materials.muu=1");
  EXPECT_EQ(override_error("bodies[3].initial.vx=1"), "--set bodies[3].initial.vx=1: bodies[3]: the list has 1 entries");
  EXPECT_EQ(override_error("materials.mu.x=1"), "--set materials.mu.x=1: materials.mu.x: materials.mu is not a map");
  EXPECT_EQ(override_error("materials.mu=[1").rfind("--set materials.mu=[1: materials.mu: YAML syntax error: ", 0), 0u);
  for (const char* text : {"nokey", "=1"}) EXPECT_THROW(parse_override(text), SceneError) << text;
  for (const char* text : {"a..b=1", ".a=1", "a.=1", "a[x]=1", "a[]=1", "a[1=1"}) {
    try {
      parse_override(text);
      ADD_FAILURE() << text;
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find("is not a key path"), std::string::npos) << e.what();
    }
  }
  // Issue 62, item 8: a second document was dropped without a word; a scene file with two is refused.
  EXPECT_EQ(override_error("materials.mu=0.2\n---\n0.9"),
            "--set materials.mu=0.2\n---\n0.9: materials.mu: a --set value holds one YAML document; this one has more "
            "than one");
  // A stray ',' outside any list made yaml-cpp's LoadAll add documents for ever (found by fuzzing).
  EXPECT_EQ(override_error("materials.mu=!!s ,"),
            "--set materials.mu=!!s ,: materials.mu: YAML syntax error: unexpected ',' outside any list or map");
  // Errors elsewhere in the file still name the file.
  EXPECT_EQ(override_error("simulation.t_end=2"), "");
}

TEST(SceneOverrides, OverriddenTextAppendsOneCommentPerOverride) {
  EXPECT_EQ(overridden_text("a: 1", {}), "a: 1");
  EXPECT_EQ(overridden_text("a: 1", parse({"a=2", "b.c=[1, 2]"})), "a: 1\n# --set a=2\n# --set b.c=[1, 2]\n");
}

}  // namespace
}  // namespace impactsim
