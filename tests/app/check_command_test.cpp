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
