// What every simulating command starts with: the scene or its located error, the law or the list
// of known ones, --integrator and --step, and the output directory.
#include <gtest/gtest.h>

#include "app/command_setup.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(CommandSetup, ScenesAndLaws) {
  EXPECT_FALSE(load_scene_or_report(bad("negative_mass.yaml")).has_value());
  const std::optional<Scene> s = load_scene_or_report(scene("rocking_block.yaml"));
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(make_law_or_report("nope", *s), nullptr);
  const std::unique_ptr<ImpactLaw> law = make_law_or_report("routh", *s);
  ASSERT_NE(law, nullptr);
  EXPECT_EQ(law->name(), "routh");
}

TEST(CommandSetup, IntegratorOverrides) {
  Scene s = load_scene(scene("box_on_incline_mu025.yaml"));
  EXPECT_EQ(override_integrator(s, "time-stepping", 0.004), "");
  EXPECT_EQ(s.system.integrator, Integrator::time_stepping);
  EXPECT_EQ(s.system.time_stepping.h, 0.004);
  EXPECT_EQ(s.system.drumwright.h, 0.004);
  EXPECT_EQ(override_integrator(s, "", 0.0), "");  // nothing asked: nothing changes
  EXPECT_EQ(s.system.integrator, Integrator::time_stepping);
  EXPECT_NE(override_integrator(s, "rk4", 0.0).find("unknown integrator 'rk4'"), std::string::npos);
  EXPECT_NE(override_integrator(s, "event-driven", 0.01).find("--step"), std::string::npos);
  Scene pinned = load_scene(scene("drumwright_pendulum.yaml"));
  EXPECT_NE(override_integrator(pinned, "event-driven", 0.0).find("pins"), std::string::npos);
}

TEST(CommandSetup, OutputDirectoryIsTheRequestedOneElseTheScenes) {
  Scene s = load_scene(scene("rocking_block.yaml"));
  const fs::path requested = fresh_path("requested") / "deeper";
  EXPECT_EQ(prepare_output_directory(requested.string(), s), requested.string());
  EXPECT_TRUE(fs::is_directory(requested));
  s.output.directory = (fresh_path("scene_dir") / "x").string();
  EXPECT_EQ(prepare_output_directory("", s), s.output.directory);
  EXPECT_TRUE(fs::is_directory(s.output.directory));
  EXPECT_EQ(prepare_output_directory("/proc/impactsim-cannot-write", s), "");
}

}  // namespace
}  // namespace impactsim
