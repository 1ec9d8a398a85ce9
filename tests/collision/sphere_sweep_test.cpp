#include "collision/sphere_sweep.hpp"

#include <gtest/gtest.h>

#include <random>

namespace impactsim {
namespace {

std::vector<std::pair<int, int>> every_pair(const std::vector<Vec3>& centre, const std::vector<double>& radius) {
  std::vector<std::pair<int, int>> pairs;
  for (size_t a = 0; a < centre.size(); ++a)
    for (size_t b = a + 1; b < centre.size(); ++b)
      if ((centre[a] - centre[b]).norm() <= radius[a] + radius[b]) pairs.emplace_back(a, b);
  return pairs;
}

TEST(SphereSweep, FindsThePairsThatEveryPairTestFinds) {
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> place(-1.0, 1.0), size(0.0, 0.2);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 1 + trial * 7;
    std::vector<Vec3> centre(n);
    std::vector<double> radius(n);
    for (int i = 0; i < n; ++i) {
      // A flat pile in the first trials, a tall column in the others: the sweep's axis differs.
      centre[i] = Vec3(place(gen), place(gen), trial < 10 ? 0.1 * place(gen) : 10 * place(gen));
      radius[i] = i % 5 == 0 ? 0.0 : size(gen);
    }
    EXPECT_EQ(overlapping_spheres(centre, radius), every_pair(centre, radius)) << "trial " << trial;
  }
}

TEST(SphereSweep, TouchingAndCoincidentSpheresArePairs) {
  // Touching exactly (0.25 + 0.75 = 1), two at one point with no radius, one apart from all.
  const std::vector<Vec3> centre{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(5, 5, 5), Vec3(5, 5, 5), Vec3(-3, 0, 0)};
  const std::vector<double> radius{0.25, 0.75, 0.0, 0.0, 1.0};
  EXPECT_EQ(overlapping_spheres(centre, radius), (std::vector<std::pair<int, int>>{{0, 1}, {2, 3}}));
  EXPECT_TRUE(overlapping_spheres({}, {}).empty());
  EXPECT_TRUE(overlapping_spheres({Vec3::Zero()}, {1.0}).empty());
}

}  // namespace
}  // namespace impactsim
