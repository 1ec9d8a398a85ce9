#pragma once
// The benchmarks' piles of boxes and spheres (collision_bench.cpp, hybrid_bench.cpp), as scene text.
#include <cmath>
#include <sstream>
#include <string>

namespace impactsim {

// A bin of ground and four walls `half_width` [m] from the centre, up to the bodies' list.
inline void bin_header(std::ostringstream& s, double half_width) {
  s << "world:\n  gravity: [0, 0, -9.81]\n  shapes:\n"
       "    - {name: ground, type: halfspace, normal: [0, 0, 1]}\n"
       "    - {name: east, type: halfspace, normal: [-1, 0, 0], offset: "
    << -half_width << "}\n    - {name: west, type: halfspace, normal: [1, 0, 0], offset: " << -half_width
    << "}\n    - {name: north, type: halfspace, normal: [0, -1, 0], offset: " << -half_width
    << "}\n    - {name: south, type: halfspace, normal: [0, 1, 0], offset: " << -half_width << "}\nbodies:\n";
}

// Body i, a box of 0.1 m (even i) or a sphere of radius 0.05 m (odd i), at x, y, z [m] turned by
// roll, pitch, yaw [deg].
inline void pile_body(std::ostringstream& s, int i, double x, double y, double z, double roll, double pitch, double yaw) {
  s << "  - {name: b" << i << ", joint: {type: free}, density: 1000, shapes: [";
  if (i % 2 == 0)
    s << "{name: s" << i << ", type: box, size: [0.1, 0.1, 0.1]}";
  else
    s << "{name: s" << i << ", type: sphere, radius: 0.05}";
  s << "], initial: {x: " << x << ", y: " << y << ", z: " << z << ", rpy_deg: [" << roll << ", " << pitch << ", " << yaw
    << "]}}\n";
}

// A pile of n bodies, boxes (turned about z) and spheres taking turns, in layers of 5 x 5 on a
// 0.12 m pitch (2 cm gaps) in a bin, `collide: all`: n (n - 1) / 2 + 5 n shape pairs, of which each
// body has a bounded number within the margin.
inline std::string pile_scene(int n) {
  std::ostringstream s;
  bin_header(s, 0.31);
  for (int i = 0; i < n; ++i) {
    const int layer = i / 25, k = i % 25;
    pile_body(s, i, (k % 5 - 2) * 0.12, (k / 5 - 2) * 0.12, 0.06 + layer * 0.12, 0, 0, 7 * (i % 5));
  }
  s << "materials: {mu: 0.3, e: 0}\ncollide: all\nsimulation: {t_end: 1.0}\n";
  return s.str();
}

// The same bodies as tools/make_box_pile_scene.py lays them out: layers of 5 x 5 on a 0.135 m
// pitch, 0.14 m apart, the first 3 cm above the ground, each body nudged by up to 1 cm sideways and
// tilted by up to 8 degrees (roll, pitch) and 20 (yaw) by fixed sines, so that no two land at once.
// By t = 0.1 s the first layer has landed (408 events) and the second not yet reached it.
inline std::string tilted_pile_scene(int n) {
  std::ostringstream s;
  bin_header(s, 0.36);
  for (int i = 0; i < n; ++i) {
    const int layer = i / 25, k = i % 25;
    pile_body(s, i, (k % 5 - 2) * 0.135 + 0.01 * std::sin(1.7 * i), (k / 5 - 2) * 0.135 + 0.01 * std::sin(2.3 * i + 1),
              0.08 + layer * 0.14, 8 * std::sin(1.3 * i), 8 * std::cos(2.1 * i), 20 * std::sin(0.7 * i));
  }
  s << "materials: {mu: 0.3, e: 0}\ncollide: all\nsimulation: {t_end: 0.1}\n";
  return s.str();
}

// n of the same tilted bodies in one layer on the ground of a bin grown to fit them (a square of
// ceil(sqrt(n)) columns on the 0.135 m pitch): every body lands near the others and the whole
// settles to rest well before t = 1 s, in islands of a few bodies whatever n is. A pile whose work
// per body stays the same as it grows: what cost per simulated second should scale linearly on.
inline std::string spread_pile_scene(int n) {
  std::ostringstream s;
  const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  bin_header(s, 0.135 * columns / 2 + 0.02);
  for (int i = 0; i < n; ++i) {
    const int row = i / columns, column = i % columns;
    pile_body(s, i, (column - (columns - 1) / 2.0) * 0.135 + 0.01 * std::sin(1.7 * i),
              (row - (columns - 1) / 2.0) * 0.135 + 0.01 * std::sin(2.3 * i + 1), 0.08, 8 * std::sin(1.3 * i),
              8 * std::cos(2.1 * i), 20 * std::sin(0.7 * i));
  }
  s << "materials: {mu: 0.3, e: 0}\ncollide: all\nsimulation: {t_end: 1.0}\n";
  return s.str();
}

}  // namespace impactsim
