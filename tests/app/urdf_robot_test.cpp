// URDF robots end to end: the shipped URDF bipeds run exactly as their YAML twins (trajectory and
// events byte for byte, under more than one law), metadata.json records the URDF and its SHA-256,
// and a batch refuses to resume when the URDF changed underneath it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "scenes/sha256.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;
using Json = nlohmann::json;

// `run` of the YAML scene and of its URDF twin with the same options: the same files.
void expect_twins(const std::string& yaml, const std::string& urdf, const std::string& options) {
  SCOPED_TRACE(yaml + " " + options);
  const fs::path a = fresh_path(yaml + "_yaml"), b = fresh_path(yaml + "_urdf");
  const Result ra = impactsim("run " + scene(yaml + ".yaml") + " " + options + " --quiet -o " + a.string());
  const Result rb = impactsim("run " + scene(urdf + ".yaml") + " " + options + " --quiet -o " + b.string());
  ASSERT_EQ(ra.code, 0) << ra.err;
  ASSERT_EQ(rb.code, 0) << rb.err;
  const std::string trajectory = read_all(a / "trajectory.csv");
  EXPECT_GT(split_lines(trajectory).size(), 20u);
  EXPECT_EQ(trajectory, read_all(b / "trajectory.csv"));
  const std::string events = read_all(a / "events.csv");
  EXPECT_NE(events.find(",impact,"), std::string::npos) << events;  // the feet do strike
  EXPECT_EQ(events, read_all(b / "events.csv"));
}

TEST(UrdfRobot, PlanarCompassGaitRunsAsItsYamlTwin) {
  expect_twins("compass_gait", "compass_gait_urdf", "--seed 7");
  // Its hip's prismatic joints carry the limits URDF requires; the run says once that it ignores them.
  const Result r = impactsim("run " + scene("compass_gait_urdf.yaml") + " --quiet -o " + fresh_path("limits").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string warning = "joints hip_slide_x, hip_slide_y: <limit> lower/upper ignored";
  ASSERT_NE(r.err.find(warning), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(warning, r.err.find(warning) + 1), std::string::npos) << r.err;
  expect_twins("compass_gait", "compass_gait_urdf", "--law anitescu-potra");
}

TEST(UrdfRobot, ThreeDimensionalCompassGaitRunsAsItsYamlTwin) {
  expect_twins("compass_gait_3d", "compass_gait_3d_urdf", "");
  expect_twins("compass_gait_3d", "compass_gait_3d_urdf", "--law sequential --seed 3");
}

TEST(UrdfRobot, MetadataRecordsTheUrdf) {
  const fs::path dir = fresh_path("metadata");
  const Result r = impactsim("run " + scene("compass_gait_urdf.yaml") + " --quiet -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const Json m = Json::parse(read_all(dir / "metadata.json"));
  const std::string urdf = m["scene"]["robot"]["urdf"];
  EXPECT_EQ(fs::path(urdf).filename(), "compass_gait.urdf");
  EXPECT_EQ(m["scene"]["robot"]["sha256"], sha256_hex(read_all(urdf)));
  const Result check = impactsim("check " + scene("compass_gait_urdf.yaml"));
  EXPECT_NE(check.out.find("robot        " + urdf + " (4 links, sha256 "), std::string::npos) << check.out;
}

TEST(UrdfRobot, BatchResumeRefusesAChangedUrdf) {
  const fs::path dir = fresh_dir("changed");
  fs::create_directories(dir / "robots");
  fs::copy_file(scene("compass_gait_urdf.yaml"), dir / "walker.yaml");
  fs::copy_file(scene("robots/compass_gait.urdf"), dir / "robots" / "compass_gait.urdf");
  const std::string batch = "batch " + (dir / "walker.yaml").string() + " --runs 4 --threads 1 -o " + (dir / "out").string();
  const Result first = impactsim(batch);
  ASSERT_EQ(first.code, 0) << first.err;
  std::string urdf = read_all(dir / "robots" / "compass_gait.urdf");
  urdf.replace(urdf.find("<mass value=\"1\"/>"), 17, "<mass value=\"2\"/>");
  write_file(dir / "robots" / "compass_gait.urdf", urdf);
  const Result resumed = impactsim(batch + " --resume");
  EXPECT_NE(resumed.code, 0);
  EXPECT_NE(resumed.err.find("scene text"), std::string::npos) << resumed.err;
}

}  // namespace
}  // namespace impactsim
