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

// Each law's model leaves out what its paper does: Routh has no restitution, the propagative law no
// friction and one R per impact. The bouncing ball has mu = 0.5 and e = 0.9 on its one contact.
TEST(CommandSetup, LawsWarnOfTheSceneParametersTheyIgnore) {
  Scene ball = load_scene(scene("bouncing_ball.yaml"));
  const std::vector<std::string> routh = law_ignores("routh", ball);
  ASSERT_EQ(routh.size(), 1u);
  EXPECT_NE(routh[0].find("law routh ignores restitution (contact ball has e = 0.9)"), std::string::npos) << routh[0];
  const std::vector<std::string> propagative = law_ignores("propagative", ball);
  ASSERT_EQ(propagative.size(), 1u);
  EXPECT_NE(propagative[0].find("law propagative ignores friction (contact ball has mu = 0.5)"), std::string::npos)
      << propagative[0];
  EXPECT_TRUE(law_ignores("anitescu-potra", ball).empty());
  EXPECT_TRUE(law_ignores("sequential", ball).empty());
  EXPECT_TRUE(law_ignores("routh", load_scene(scene("rocking_block.yaml"))).empty());  // e = 0
  // A fixed-step integrator uses no impact law: nothing to warn of.
  ASSERT_EQ(override_integrator(ball, "time-stepping", 0.0), "");
  EXPECT_TRUE(law_ignores("routh", ball).empty());
}

// Contacts with their own e: the propagative law's single R is the smallest unless the scene sets R.
TEST(CommandSetup, PropagativeWarnsOfOneRestitutionForDifferingContacts) {
  std::string text = read_all(scene("rocking_block.yaml"));
  for (const std::string corner : {"A", "B"}) {
    const std::string key = "{name: " + corner + ", ";
    ASSERT_NE(text.find(key), std::string::npos);
    text.replace(text.find(key), key.size(), key + "e: " + (corner == "A" ? "0.2" : "0.7") + ", ");
  }
  const fs::path path = fresh_dir("two_e") / "rb.yaml";
  std::ofstream(path) << text;
  Scene s = load_scene(path.string());
  const std::vector<std::string> w = law_ignores("propagative", s);
  ASSERT_EQ(w.size(), 2u);  // friction (mu = 1) and the single R
  EXPECT_NE(w[1].find("the smallest e of its contacts; the scene's e range over [0.2, 0.7]"), std::string::npos) << w[1];
  s.laws.of("propagative").set("R", 0.5);
  EXPECT_EQ(law_ignores("propagative", s).size(), 1u);
  EXPECT_EQ(law_ignores("routh", s).size(), 1u);
}

// A batch warns once, not once per run.
TEST(CommandSetup, ABatchWarnsOnce) {
  const Result r = impactsim("batch " + scene("bouncing_ball.yaml") + " --law propagative --runs 3 -q -o " +
                             fresh_path("warn_once").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string warning = "ignores friction";
  const size_t first = r.err.find(warning);
  ASSERT_NE(first, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(warning, first + 1), std::string::npos) << r.err;
}

TEST(CommandSetup, IntegratorOverrides) {
  Scene s = load_scene(scene("box_on_incline.yaml"));
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
