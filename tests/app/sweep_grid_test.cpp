// The grid of impactsim sweep: ranges, lists, the order of the points, and the errors.
#include "app/sweep_grid.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace impactsim {
namespace {

using Values = std::vector<std::string>;

TEST(SweepGrid, ARangeHasNValuesWithBothEndsAndNoRoundingNoise) {
  EXPECT_EQ(parse_sweep_param("materials.mu=0:0.5:11").values,
            (Values{"0", "0.05", "0.1", "0.15", "0.2", "0.25", "0.3", "0.35", "0.4", "0.45", "0.5"}));
  EXPECT_EQ(parse_sweep_param("bodies[0].initial.vx=-0.2:0.2:5").values, (Values{"-0.2", "-0.1", "0", "0.1", "0.2"}));
  EXPECT_EQ(parse_sweep_param("k=1:0:3").values, (Values{"1", "0.5", "0"}));  // descending
  EXPECT_EQ(parse_sweep_param("k=2:2:1").values, (Values{"2"}));
  EXPECT_EQ(parse_sweep_param("k=1e-3:3e-3:3").values, (Values{"0.001", "0.002", "0.003"}));
  EXPECT_EQ(parse_sweep_param("simulation.routh.h=0.1:0.3:3").key, "simulation.routh.h");
}

TEST(SweepGrid, AListKeepsYamlValuesWhole) {
  EXPECT_EQ(parse_sweep_param("simulation.law=routh,anitescu-potra").values, (Values{"routh", "anitescu-potra"}));
  // Commas inside a YAML flow list or map do not split it, and a colon there is no range.
  EXPECT_EQ(parse_sweep_param("world.gravity=[0, 0, -9.81],[0, 0, -1.62]").values,
            (Values{"[0, 0, -9.81]", "[0, 0, -1.62]"}));
  EXPECT_EQ(parse_sweep_param("simulation.routh={h: 0.1, steps: 20},{h: 0.3}").values,
            (Values{"{h: 0.1, steps: 20}", "{h: 0.3}"}));
  EXPECT_EQ(parse_sweep_param("materials.e=0.5").values, (Values{"0.5"}));
}

TEST(SweepGrid, BadParametersSayWhatIsWrong) {
  auto message = [](const std::string& text) {
    try {
      parse_sweep_param(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("materials.mu"), "--param materials.mu: expected KEY=START:STOP:N or KEY=V1,V2,...");
  EXPECT_EQ(message("=1,2"), "--param =1,2: expected KEY=START:STOP:N or KEY=V1,V2,...");
  EXPECT_EQ(message("k=0:1"), "--param k=0:1: a range is START:STOP:N");
  EXPECT_EQ(message("k=0:x:3"), "--param k=0:x:3: START and STOP must be finite numbers");
  EXPECT_EQ(message("k=0:1:2.5"), "--param k=0:1:2.5: N must be a whole number from 1 to 1000000");
  EXPECT_EQ(message("k=0:1:0"), "--param k=0:1:0: N must be a whole number from 1 to 1000000");
  EXPECT_EQ(message("k=0:1:1"), "--param k=0:1:1: N = 1 needs START = STOP");
  EXPECT_EQ(message("k=1,,2"), "--param k=1,,2: an empty value");
}

TEST(SweepGrid, PointsAreEveryCombinationWithTheFirstParameterSlowest) {
  const std::vector<SweepParam> params{{"a", {"1", "2"}}, {"b", {"x", "y", "z"}}};
  const std::vector<std::vector<std::string>> points = sweep_points(params);
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(points[0], (Values{"a=1", "b=x"}));
  EXPECT_EQ(points[1], (Values{"a=1", "b=y"}));
  EXPECT_EQ(points[2], (Values{"a=1", "b=z"}));
  EXPECT_EQ(points[3], (Values{"a=2", "b=x"}));
  EXPECT_EQ(points[5], (Values{"a=2", "b=z"}));
}

TEST(SweepGrid, RepeatedKeysAndHugeGridsAreRefused) {
  EXPECT_THROW(sweep_points({{"a", {"1"}}, {"a", {"2"}}}), std::invalid_argument);
  const SweepParam thousand{"a", Values(1000, "1")};
  EXPECT_NO_THROW(sweep_points({thousand}, 1000));
  EXPECT_THROW(sweep_points({thousand, {"b", {"1", "2"}}}, 1000), std::invalid_argument);
}

}  // namespace
}  // namespace impactsim
