// impactsim check: the model summary, and scenes that cannot be read.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "app/commands.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(Check, CheckPrintsTheModelSummary) {
  const Result r = impactsim("check " + scene("double_pendulum.yaml"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("bodies       2, total mass 2 kg"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nq = 2, nv = 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("upper: revolute joint to world"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("planar       yes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("initial      kinetic 0 J"), std::string::npos) << r.out;
}

// Everything a run would use: each contact's materials, the integrator, the law with its
// parameters (or that the integrator ignores it), the seed, what batch randomizes and records.
TEST(Check, CheckPrintsContactsLawRandomizeAndOutcomes) {
  const std::string tilt = describe_scene(load_scene(scene("rocking_block_random_tilt.yaml")));
  for (const char* line : {"contacts     2 (mu, e)\n  A: mu 1, e 0\n  B: mu 1, e 0\n", "integrator   event-driven\n",
                           "law          routh (h 0.3, steps 10, sampling uniform, solution lemke, tolerance 1e-08)\n",
                           "seed         0\n", "randomize    1\n  block.theta: uniform [-0.00872665, 0.00872665]\n",
                           "outcomes     final_tilt_deg, first_lift_A, first_lift_B, lifts_A, lifts_B\n"})
    EXPECT_NE(tilt.find(line), std::string::npos) << line << "\n" << tilt;
  const std::string cube = describe_scene(load_scene(scene("cube_toss.yaml")));
  EXPECT_NE(cube.find("  cube.vx: normal, mean 1.5, sd 0.2\n"), std::string::npos) << cube;
  EXPECT_NE(cube.find("law          anitescu-potra\n"), std::string::npos) << cube;
  const std::string fixed = describe_scene(load_scene(scene("drumwright_pendulum.yaml")));
  EXPECT_NE(fixed.find("; unused by this integrator"), std::string::npos) << fixed;
  EXPECT_NE(fixed.find("randomize    none\n"), std::string::npos) << fixed;
  // A long list of contacts is cut: sphere_row has 201.
  const std::string row = describe_scene(load_scene(scene("sphere_row.yaml")));
  EXPECT_NE(row.find("contacts     201 (mu, e)"), std::string::npos);
  EXPECT_NE(row.find("  ... 177 more\n"), std::string::npos) << row;
}

// A joint's damping with its unit, and what of a URDF is ignored.
TEST(Check, CheckPrintsJointDampingAndTheUrdfsIgnoredElements) {
  const std::string damped = describe_scene(load_scene_text(R"(
world: {gravity: [0, 0, -9.81]}
bodies:
  - {name: arm, joint: {type: revolute, axis: [0, 1, 0], damping: 0.25}, mass: 1, inertia: [1, 1, 1]}
  - {name: slide, parent: arm, joint: {type: prismatic, damping: 2}, mass: 1, inertia: [1, 1, 1]}
simulation: {t_end: 1}
)", "damped.yaml"));
  EXPECT_NE(damped.find("principal inertia [1, 1, 1] kg m^2, damping 0.25 N m s/rad\n"), std::string::npos) << damped;
  EXPECT_NE(damped.find("principal inertia [1, 1, 1] kg m^2, damping 2 N s/m\n"), std::string::npos) << damped;
  const std::string urdf = describe_scene(load_scene(scene("compass_gait_urdf.yaml")));
  EXPECT_NE(urdf.find("  ignored: " + scene("robots/compass_gait.urdf") +
                      ": joints hip_slide_x, hip_slide_y: <limit> lower/upper ignored"),
            std::string::npos)
      << urdf;
  // --set reaches a URDF joint's damping through robot.damping.
  const Result set = impactsim("check " + scene("compass_gait_urdf.yaml") + " --set robot.damping.leading=0.5");
  ASSERT_EQ(set.code, 0) << set.err;
  EXPECT_NE(set.out.find("  --set robot.damping.leading=0.5\n"), std::string::npos) << set.out;
  EXPECT_NE(set.out.find("leading: revolute joint to hip, mass 1 kg, com [0, -0.5, 0], principal inertia [0, 0, 0] kg m^2, "
                         "damping 0.5 N m s/rad\n"),
            std::string::npos)
      << set.out;
}

TEST(Check, MissingSceneFileExitsWithTwo) {
  const Result r = impactsim("check /no/such/scene.yaml");
  EXPECT_EQ(r.code, kExitScene);
  EXPECT_NE(r.err.find("/no/such/scene.yaml: cannot open"), std::string::npos) << r.err;
}

TEST(Check, DescribeSceneNamesTheModel) {
  const std::string text = describe_scene(load_scene(scene("bouncing_ball.yaml")));
  EXPECT_NE(text.find("scene        bouncing_ball"), std::string::npos) << text;
  EXPECT_NE(text.find("planar       no"), std::string::npos) << text;
  EXPECT_NE(text.find("ball: free joint to world"), std::string::npos) << text;
  EXPECT_NE(text.find("nq = 7, nv = 6"), std::string::npos) << text;
  EXPECT_NE(text.find("ground (halfspace), ball_shape (sphere)"), std::string::npos) << text;
  EXPECT_NE(text.find("t_end 10 s"), std::string::npos) << text;
}

}  // namespace
}  // namespace impactsim
