#include "collision/convex_hull.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include <Eigen/Geometry>
#include <string>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace impactsim {
namespace {

// Qhull's messages go to a memory stream, to be quoted in the error.
struct MessageStream {
  char* text = nullptr;
  std::size_t size = 0;
  FILE* file = open_memstream(&text, &size);
  ~MessageStream() {
    if (file) std::fclose(file);
    std::free(text);
  }
  std::string str() {
    if (file) std::fflush(file);
    return text ? std::string(text, size) : std::string();
  }
};

}  // namespace

TriangleMesh convex_hull(const std::vector<Vec3>& points) {
  if (points.size() < 4)
    throw std::invalid_argument("a convex hull needs at least 4 points, not " + std::to_string(points.size()));
  std::vector<coordT> coords;
  for (const Vec3& p : points) {
    if (!p.allFinite()) throw std::invalid_argument("a convex hull's points must be finite numbers");
    coords.insert(coords.end(), {p.x(), p.y(), p.z()});
  }
  MessageStream messages;
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, messages.file);
  char options[] = "qhull Qt";  // triangulated facets
  const int status = qh_new_qhull(qh, 3, static_cast<int>(points.size()), coords.data(), False, options, nullptr,
                                  messages.file);
  TriangleMesh hull;
  if (status == 0) {
    std::vector<int> index(points.size(), -1);  // input point -> hull vertex
    facetT* facet;
    FORALLfacets {
      std::array<int, 3> t{};
      int corner = 0;
      vertexT *vertex, **vertexp;
      FOREACHvertex_(facet->vertices) {
        if (corner == 3) break;
        const int id = qh_pointid(qh, vertex->point);
        if (index[id] < 0) {
          index[id] = static_cast<int>(hull.vertices.size());
          hull.vertices.push_back(points[id]);
        }
        t[corner++] = index[id];
      }
      const Vec3 outward(facet->normal[0], facet->normal[1], facet->normal[2]);
      const Vec3 &a = hull.vertices[t[0]], &b = hull.vertices[t[1]], &c = hull.vertices[t[2]];
      if ((b - a).cross(c - a).dot(outward) < 0) std::swap(t[1], t[2]);
      hull.triangles.push_back(t);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int long_left = 0, total_left = 0;
  qh_memfreeshort(qh, &long_left, &total_left);
  if (status != 0) {
    std::string reason = messages.str();
    const auto first_line = reason.find('\n');
    if (first_line != std::string::npos) reason.resize(first_line);
    throw std::invalid_argument("the points span no volume (Qhull: " + reason + ")");
  }
  return hull;
}

}  // namespace impactsim
