#pragma once
// Sweep and prune over spheres: the pairs that touch or overlap, found by sorting the spheres along
// the axis over which their centres spread most and testing only those whose extents on that axis
// meet. Costs n log n plus the pairs whose extents meet on that axis, not n^2.
#include <utility>
#include <vector>

#include "collision/shape.hpp"

namespace impactsim {

// Every pair (a, b), a < b, with |centre[a] - centre[b]| <= radius[a] + radius[b] (radii >= 0, in
// the centres' units), ascending by a then b.
std::vector<std::pair<int, int>> overlapping_spheres(const std::vector<Vec3>& centre, const std::vector<double>& radius);

}  // namespace impactsim
