// Located, strict access to YAML: every error names file, line, column and key path; numbers are
// finite and whole where they must be; maps hold only the keys allowed, once each.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include <unistd.h>

#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

const std::string kFieldFile = "field.yaml";

Field root_of(const std::string& text, YAML::Node& keep) {
  keep = parse_yaml_text(text, kFieldFile);
  return Field(kFieldFile, keep, "");
}

// The SceneError thrown by f, or a failure.
SceneError field_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const SceneError& e) {
    return e;
  }
  ADD_FAILURE() << "no SceneError";
  return SceneError("", 0, 0, "", "");
}

TEST(YamlField, NumbersAreStrict) {
  YAML::Node doc;
  const Field f = root_of("a: 1.5e3\nb: .nan\nc: 1.5x\nd: '2'\ne: 1e400\nf: -.inf\n", doc);
  EXPECT_EQ(f.child("a").number(), 1500.0);
  EXPECT_NE(field_error([&] { f.child("b").number(); }).message().find("finite"), std::string::npos);
  EXPECT_NE(field_error([&] { f.child("c").number(); }).message().find("expected a number"), std::string::npos);
  EXPECT_NE(field_error([&] { f.child("d").number(); }).message().find("string"), std::string::npos);  // quoted
  EXPECT_NE(field_error([&] { f.child("e").number(); }).message().find("finite"), std::string::npos);  // overflows
  EXPECT_NE(field_error([&] { f.child("f").number(); }).message().find("finite"), std::string::npos);
}

// Issue 62, item 6: a !!str-tagged number and a 100,000-digit one were read as numbers.
TEST(YamlField, NumbersAreUntaggedOrTaggedAsNumbersAndShort) {
  YAML::Node doc;
  const std::string digits(kMaxNumberText, '1');
  const Field f = root_of("a: !!str 2\nb: !!float 2.5\nc: !!int 3\nd: " + digits + "\ne: 1" + digits + "\n", doc);
  EXPECT_EQ(field_error([&] { f.child("a").number(); }).message(), "expected a number, found the string \"2\"");
  EXPECT_EQ(f.child("b").number(), 2.5);
  EXPECT_EQ(f.child("c").number(), 3.0);
  EXPECT_EQ(f.child("d").number(), std::stod(digits));
  EXPECT_EQ(field_error([&] { f.child("e").number(); }).message(),
            "expected a number of at most 100 characters, found one of 101");
}

// Issue 62, item 1: a coordinate past the broadphase's bounds aborted a run; positions and lengths
// are bounded where they are read.
TEST(YamlField, CoordinatesLieWithinAThousandKilometres) {
  YAML::Node doc;
  const Field f = root_of("in: 1e6\nout: -1.000001e6\np: [1, -1e6, 0]\nq: [0, 1e308, 0]\nshort: [1, 2]\n", doc);
  EXPECT_EQ(f.child("in").coordinate(), kMaxCoordinate);
  const SceneError out = field_error([&] { f.child("out").coordinate(); });
  EXPECT_EQ(out.message(), "must be within 1e+06 m of the origin (a scene is at most 2000 km across), found -1.000001e6");
  EXPECT_EQ(out.key(), "out");
  EXPECT_EQ(f.child("p").position(), Vec3(1, -1e6, 0));
  EXPECT_EQ(field_error([&] { f.child("q").position(); }).key(), "q[1]");
  EXPECT_EQ(field_error([&] { f.child("short").position(); }).message(), "expected a list of 3 numbers, found 2 entries");
}

TEST(YamlField, SignsAndWholeNumbers) {
  YAML::Node doc;
  const Field f = root_of("z: 0\nn: -1\nw: 3\nh: 2.5\n", doc);
  EXPECT_EQ(f.child("z").non_negative(), 0.0);
  EXPECT_NE(field_error([&] { f.child("z").positive(); }).message().find("must be positive"), std::string::npos);
  EXPECT_NE(field_error([&] { f.child("n").non_negative(); }).message().find("must not be negative"), std::string::npos);
  EXPECT_EQ(f.child("w").integer(), 3);
  EXPECT_NE(field_error([&] { f.child("h").integer(); }).message().find("whole number"), std::string::npos);
  EXPECT_EQ(f.child("w").integer_in(1, 3), 3);
  EXPECT_EQ(field_error([&] { f.child("w").integer_in(4, 9); }).message(), "must be a whole number from 4 to 9, found 3");
}

// Names are checked by a scan, bounded in length: std::regex overflowed the stack on 30,000 characters.
TEST(YamlField, NamesAreBoundedAndMadeOfAllowedCharacters) {
  EXPECT_TRUE(valid_name("block_2"));
  EXPECT_FALSE(valid_name("2block"));
  EXPECT_TRUE(valid_name("2block", "", true));
  EXPECT_FALSE(valid_name(""));
  EXPECT_FALSE(valid_name("a.b"));
  EXPECT_TRUE(valid_name("a.b", "."));
  EXPECT_FALSE(valid_name("a,b", ".-"));
  EXPECT_TRUE(valid_name(std::string(kMaxNameLength, 'a')));
  EXPECT_FALSE(valid_name(std::string(kMaxNameLength + 1, 'a')));
  EXPECT_FALSE(valid_name(std::string(1'000'000, 'a')));
}

// `key:` and `key: ~` once meant the default; now they are located errors.
TEST(YamlField, AKeyWithoutAValueIsAnError) {
  for (const std::string text : {"a: 1\nb:\n", "a: 1\nb: ~\n", "a: 1\nb: null\n"}) {
    YAML::Node doc;
    const Field f = root_of(text, doc);
    const SceneError e = field_error([&] { f.expect_map({"a", "b"}); });
    EXPECT_EQ(e.key(), "b") << text;
    EXPECT_NE(e.message().find("has no value"), std::string::npos) << text;
  }
}

TEST(YamlField, ErrorsAreLocatedAtTheKey) {
  YAML::Node doc;
  const Field f = root_of("outer:\n  inner:\n    x: [1, 2]\n", doc);
  const SceneError e = field_error([&] { f.child("outer").child("inner").child("x").vec3(); });
  EXPECT_EQ(e.file(), kFieldFile);
  EXPECT_EQ(e.line(), 3);
  EXPECT_EQ(e.column(), 8);
  EXPECT_EQ(e.key(), "outer.inner.x");
  EXPECT_EQ(std::string(e.what()), "field.yaml:3:8: outer.inner.x: expected a list of 3 numbers, found 2 entries");
  // A missing key is reported at its parent's position, with its own path.
  const SceneError missing = field_error([&] { f.child("outer").require("t_end"); });
  EXPECT_EQ(missing.line(), 2);
  EXPECT_EQ(missing.key(), "outer.t_end");
  EXPECT_NE(missing.message().find("missing required key 't_end'"), std::string::npos);
}

TEST(YamlField, MapsHoldOnlyAllowedKeysOnce) {
  YAML::Node doc;
  const Field f = root_of("m: {a: 1, b: 2}\nd: {a: 1, a: 2}\nl: [1]\n", doc);
  EXPECT_NO_THROW(f.child("m").expect_map({"a", "b", "c"}));
  const SceneError unknown = field_error([&] { f.child("m").expect_map({"a"}); });
  EXPECT_EQ(unknown.key(), "m.b");
  EXPECT_NE(unknown.message().find("unknown key 'b' (allowed here: a)"), std::string::npos) << unknown.message();
  EXPECT_NE(field_error([&] { f.child("d").expect_map({"a"}); }).message().find("duplicate key 'a'"), std::string::npos);
  EXPECT_NE(field_error([&] { f.child("l").expect_map({"a"}); }).message().find("expected a map"), std::string::npos);
  EXPECT_EQ(f.child("m").keys(), (std::vector<std::string>{"a", "b"}));
}

TEST(YamlField, ListsNameTheirEntries) {
  YAML::Node doc;
  const Field f = root_of("l: [1, x, 3]\n", doc);
  const std::vector<Field> e = f.child("l").elements();
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[1].path(), "l[1]");
  EXPECT_EQ(field_error([&] { f.child("l").numbers(); }).key(), "l[1]");
}

TEST(YamlField, ChooseListsTheWordsItKnows) {
  YAML::Node doc;
  const Field f = root_of("k: blue\n", doc);
  enum class Colour { red, green };
  const SceneError e = field_error([&] { choose<Colour>(f.child("k"), {{"red", Colour::red}, {"green", Colour::green}}); });
  EXPECT_NE(e.message().find("expected red or green, found 'blue'"), std::string::npos) << e.message();
}

TEST(YamlField, SyntaxErrorsAndMissingFilesAreSceneErrors) {
  const SceneError syntax = field_error([] { parse_yaml_text("a: [1, 2\n", "broken.yaml"); });
  EXPECT_EQ(syntax.file(), "broken.yaml");
  EXPECT_NE(syntax.message().find("YAML syntax error"), std::string::npos);
  const SceneError missing = field_error([] { parse_yaml_file("/no/such/scene.yaml"); });
  EXPECT_EQ(missing.line(), 0);
  EXPECT_NE(std::string(missing.what()).find("/no/such/scene.yaml: cannot open"), std::string::npos);
}

TEST(YamlField, FilesNamedBySceneLieBesideTheirNamer) {
  EXPECT_EQ(path_beside("meshes/a.obj", "scenes/walker.yaml"), "scenes/meshes/a.obj");
  EXPECT_EQ(path_beside("a.urdf", "walker.yaml"), "a.urdf");
  EXPECT_EQ(path_beside("/abs/a.obj", "scenes/walker.yaml"), "/abs/a.obj");
}

TEST(YamlField, FileProblemsNameTheFile) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("impactsim_file_problem_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "part.obj").string();
  std::ofstream(file) << std::string(2 << 20, 'x');
  EXPECT_EQ(file_problem(file, "mesh", 4u << 20), "");
  EXPECT_EQ(file_problem(file, "mesh", 1u << 20), "'" + file + "' is larger than 1 MiB");
  EXPECT_EQ(file_problem(dir.string(), "mesh", 1u << 20), "'" + dir.string() + "' is not a regular file");
  EXPECT_EQ(file_problem((dir / "gone.urdf").string(), "URDF", 1u << 20), "no such URDF file '" + (dir / "gone.urdf").string() + "'");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace impactsim
