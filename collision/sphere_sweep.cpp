#include "collision/sphere_sweep.hpp"

#include <algorithm>
#include <numeric>

namespace impactsim {

std::vector<std::pair<int, int>> overlapping_spheres(const std::vector<Vec3>& centre, const std::vector<double>& radius) {
  const int n = static_cast<int>(centre.size());
  std::vector<std::pair<int, int>> pairs;
  if (n < 2) return pairs;
  Vec3 lo = centre[0], hi = centre[0];
  for (const Vec3& c : centre) {
    lo = lo.cwiseMin(c);
    hi = hi.cwiseMax(c);
  }
  int axis = 0;
  (hi - lo).maxCoeff(&axis);
  // The axis test is loosened by far more than its rounding, so that only the exact test decides.
  const double largest = std::max({lo.cwiseAbs().maxCoeff(), hi.cwiseAbs().maxCoeff(), *std::max_element(radius.begin(), radius.end())});
  const double slack = 1e-9 * largest;
  std::vector<double> start(n);
  for (int i = 0; i < n; ++i) start[i] = centre[i][axis] - radius[i] - slack;
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int i, int j) { return start[i] < start[j] || (start[i] == start[j] && i < j); });
  for (int k = 0; k < n; ++k) {
    const int a = order[k];
    const double end = centre[a][axis] + radius[a] + slack;
    for (int m = k + 1; m < n && start[order[m]] <= end; ++m) {
      const int b = order[m];
      if ((centre[a] - centre[b]).norm() <= radius[a] + radius[b]) pairs.emplace_back(std::min(a, b), std::max(a, b));
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace impactsim
