// A law added to the registry is one file and one line: this file is the whole law (its class and
// its descriptor), and register_law its line. Everything else finds it through the registry: the
// scene loader reads its section and refuses what it does not declare, `check` and metadata.json
// show its settings, --help lists it, scenes/README.md's table would hold its keys, and a run uses it.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "app/command_setup.hpp"
#include "app/commands.hpp"
#include "app/metadata.hpp"
#include "impact/anitescu_potra.hpp"
#include "impact/laws.hpp"
#include "scenes/scene.hpp"
#include "scenes/scene_keys.hpp"

namespace impactsim {
namespace {

// The test law: a frictionless simultaneous impact whose restitution replaces every contact's e.
class FrictionlessLaw : public ImpactLaw {
 public:
  explicit FrictionlessLaw(double restitution) : restitution_(restitution) {}
  std::string_view name() const override { return "frictionless"; }
  std::unique_ptr<PreparedImpact> prepare(const ContactSpace& space, const Eigen::VectorXd& v_minus) const override {
    ContactSpace plain = space;
    plain.mu.setZero();
    if (restitution_ >= 0) plain.e.setConstant(restitution_);
    return AnitescuPotraLaw().prepare(plain, v_minus);
  }

 private:
  double restitution_;
};

const LawDescriptor& frictionless_law() {
  static const LawDescriptor law = [] {
    LawDescriptor out;
    out.name = "frictionless";
    out.summary = "a test law: Anitescu-Potra without friction, one restitution for every contact";
    out.model.friction = false;
    out.settings = {number_setting("restitution", SettingKind::fraction, -1.0, "each contact's `e`",
                                   "Newton restitution of every contact")};
    out.make = [](const Settings& s) -> std::unique_ptr<ImpactLaw> {
      return std::make_unique<FrictionlessLaw>(s.number("restitution"));
    };
    return out;
  }();
  return law;
}

// The registry line, once for the whole test binary.
const bool kRegistered = [] {
  register_law(frictionless_law());
  return true;
}();

const std::string kScene = R"(
name: ball
world: {gravity: [0, 0, -10], shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]}
bodies:
  - {name: ball, joint: {type: free}, mass: 1, inertia: [0.004, 0.004, 0.004], initial: {z: 0.105, vz: -2}}
materials: {mu: 0.5, e: 0.9}
contacts: [{name: foot, body: ball, point: [0, 0, -0.1], with: ground}]
simulation:
  t_end: 0.05
  law: frictionless
  frictionless: {restitution: 0.25}
)";

TEST(AddedLaw, TheRegistryLineMakesItKnownEverywhere) {
  ASSERT_TRUE(kRegistered);
  EXPECT_EQ(law_names().back(), "frictionless");
  EXPECT_NE(law_names_text().find(", frictionless"), std::string::npos);
  EXPECT_NE(registry_help().find("  frictionless: a test law"), std::string::npos);
  bool row = false;
  for (const SceneKey& k : scene_keys())
    row = row || (k.section == "simulation.frictionless" && k.key == "restitution" && k.type == "number in [0, 1]");
  EXPECT_TRUE(row);
  EXPECT_NE(section_table("simulation").find("| `frictionless` | map |"), std::string::npos);
}

TEST(AddedLaw, AScenesSectionIsReadCheckedShownAndRun) {
  const Scene scene = load_scene_text(kScene, "ball.yaml");
  EXPECT_EQ(scene.law, "frictionless");
  EXPECT_EQ(scene.laws.of("frictionless").number("restitution"), 0.25);
  EXPECT_NE(describe_scene(scene).find("frictionless (restitution 0.25)"), std::string::npos) << describe_scene(scene);
  Metadata run;
  run.command = "run";
  run.law = scene.law;
  const nlohmann::json m = nlohmann::json::parse(metadata_json(run, scene, "ok", 0));
  EXPECT_EQ(m["settings"]["law_settings"]["restitution"], 0.25);
  // The ball falls 5 mm onto the ground at sqrt(2^2 + 2 g 0.005) and leaves at 0.25 of that: the
  // law's restitution, not the scene's e = 0.9.
  const auto law = make_law_or_report(scene.law, scene);
  ASSERT_NE(law, nullptr);
  double vz_after = 0;
  RunCallbacks callbacks;
  callbacks.event = [&](const Event& e) {
    if (e.kind == EventKind::impact && vz_after == 0) vz_after = e.normal_velocity_after.at(0);
  };
  Rng rng(0);
  simulate(scene.system, *law, scene.initial, rng, callbacks);
  EXPECT_NEAR(vz_after, 0.25 * std::sqrt(4 + 2 * 10 * 0.005), 1e-9);
}

TEST(AddedLaw, ItsSectionRefusesWhatItDoesNotDeclare) {
  for (const auto& [replace, message] : std::vector<std::pair<std::string, std::string>>{
           {"frictionless: {restitution: 1.5}", "must be between 0 and 1"},
           {"frictionless: {e: 0.5}", "unknown key 'e'"}}) {
    std::string text = kScene;
    text.replace(text.find("frictionless: {restitution: 0.25}"), 33, replace);
    try {
      load_scene_text(text, "ball.yaml");
      ADD_FAILURE() << replace << " was accepted";
    } catch (const SceneError& e) {
      EXPECT_EQ(e.key().rfind("simulation.frictionless", 0), 0u) << e.what();
      EXPECT_NE(e.message().find(message), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace impactsim
