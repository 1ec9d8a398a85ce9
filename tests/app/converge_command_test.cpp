// impactsim converge: the fixed-step schemes against the event-driven run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "app/commands.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(Converge, ConvergeReportsFirstOrderForTheSlidingBox) {
  const fs::path dir = fresh_dir("converge");
  const Result r = impactsim("converge " + scene("box_on_incline.yaml") + " --steps 0.02,0.01,0.005 -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream csv(read_all(dir / "convergence.csv"));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "h,steps,impacts,q_error_max,q_error_final,v_error_final,order,wall_s");
  std::vector<std::vector<std::string>> rows;
  while (std::getline(csv, line)) rows.push_back(split(line));
  ASSERT_EQ(rows.size(), 3u);
  // Semi-implicit Euler is first order on the smooth slide: the error halves with h.
  for (size_t k = 1; k < rows.size(); ++k) EXPECT_NEAR(std::stod(rows[k][6]), 1.0, 0.1) << line;
  EXPECT_LT(std::stod(rows[2][3]), 2 * 9.81 * 0.005);
  // Bad input: one step size, a negative one, a pinned scene.
  EXPECT_EQ(impactsim("converge " + scene("box_on_incline.yaml") + " --steps 0.01 -o " + dir.string()).code, kExitUsage);
  EXPECT_EQ(impactsim("converge " + scene("box_on_incline.yaml") + " --steps 0.01,-0.005 -o " + dir.string()).code,
            kExitUsage);
  EXPECT_EQ(impactsim("converge " + scene("drumwright_pendulum.yaml") + " --steps 0.01,0.005 -o " + dir.string()).code,
            kExitUsage);
  // Step sizes no run could finish are refused before the first run (they once ran for hours).
  const Result tiny = impactsim("converge " + scene("bouncing_ball.yaml") + " --steps 1e-9,1e-10 -o " + dir.string());
  EXPECT_EQ(tiny.code, kExitUsage);
  EXPECT_NE(tiny.err.find("--steps 1e-09: t_end / h = 1e+10 steps"), std::string::npos) << tiny.err;
}

}  // namespace
}  // namespace impactsim
