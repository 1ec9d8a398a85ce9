#pragma once
// The convex hull of a point set (Qhull): a closed, outward triangle mesh whose vertices are the
// hull's extreme points. Throws std::invalid_argument, with Qhull's reason, where the points span
// no volume (fewer than four, or all in one plane) or are not finite.
#include <vector>

#include "collision/mesh.hpp"

namespace impactsim {

TriangleMesh convex_hull(const std::vector<Vec3>& points);

}  // namespace impactsim
