#include "app/plot_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sys/wait.h>

#include <spdlog/spdlog.h>

#include "collision/mesh.hpp"

#include "core/contact_data.hpp"
#include "core/kinematics.hpp"

namespace impactsim {
namespace {

// A word for /bin/sh: single-quoted, its quotes escaped.
std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

namespace {

namespace fs = std::filesystem;

using Polyline = std::vector<Vec3>;

// A circle of radius r about `centre` in the plane spanned by the unit vectors a and b (an arc from
// angle `from` to `to`), 33 points.
Polyline ring(const Vec3& centre, const Vec3& a, const Vec3& b, double r, double from = 0, double to = 2 * M_PI) {
  Polyline p;
  for (int k = 0; k <= 32; ++k) {
    const double angle = from + (to - from) * k / 32;
    p.push_back(centre + r * (std::cos(angle) * a + std::sin(angle) * b));
  }
  return p;
}

// A planar circle with a spoke, so that turning shows.
Polyline circle(const Vec3& centre, double r) {
  Polyline p = ring(centre, Vec3::UnitX(), Vec3::UnitY(), r);
  p.push_back(centre);
  return p;
}

// The closed outline of points' shadow on the plane z = 0 (Andrew's monotone chain).
Polyline shadow_outline(std::vector<Vec3> points) {
  std::sort(points.begin(), points.end(), [](const Vec3& a, const Vec3& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  auto turn = [](const Vec3& o, const Vec3& a, const Vec3& b) {
    return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
  };
  Polyline hull;
  for (int pass = 0; pass < 2; ++pass) {
    const size_t start = hull.size();
    for (const Vec3& p : points) {
      while (hull.size() >= start + 2 && turn(hull[hull.size() - 2], hull.back(), p) <= 0) hull.pop_back();
      hull.push_back(Vec3(p.x(), p.y(), 0));
    }
    hull.pop_back();
    std::reverse(points.begin(), points.end());
  }
  if (!hull.empty()) hull.push_back(hull.front());
  return hull;
}

// A shape's outline in its body's frame (the plane z = 0 of a planar scene).
Polyline outline(const Shape& s) {
  const Vec3& o = s.position;
  const Mat3& R = s.rotation;
  switch (s.type) {
    case ShapeType::box: {
      const Vec3 h = 0.5 * s.size;
      Polyline p;
      for (const auto& [x, y] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}})
        p.push_back(o + R * Vec3(x * h.x(), y * h.y(), 0));
      return p;
    }
    case ShapeType::sphere:
    case ShapeType::cylinder: return circle(o, s.radius);
    case ShapeType::capsule: {
      const Vec3 axis = R.col(2) * (0.5 * s.length), side = Vec3(-axis.y(), axis.x(), 0).normalized() * s.radius;
      if (axis.head<2>().norm() < 1e-9) return circle(o, s.radius);
      Polyline p;
      for (int k = 0; k <= 16; ++k) {  // a stadium: two half circles joined
        const double a = M_PI * k / 16;
        p.push_back(o + axis + std::cos(a) * side + std::sin(a) * axis.normalized() * s.radius);
      }
      for (int k = 0; k <= 16; ++k) {
        const double a = M_PI * k / 16;
        p.push_back(o - axis - std::cos(a) * side - std::sin(a) * axis.normalized() * s.radius);
      }
      p.push_back(p.front());
      return p;
    }
    case ShapeType::cone: {
      std::vector<Vec3> points = {o + R * Vec3(0, 0, s.length / 2)};
      for (int k = 0; k < 32; ++k) {
        const double a = 2 * M_PI * k / 32;
        points.push_back(o + R * Vec3(s.radius * std::cos(a), s.radius * std::sin(a), -s.length / 2));
      }
      return shadow_outline(points);
    }
    case ShapeType::convex: {
      std::vector<Vec3> points;
      for (const Vec3& v : s.hull->vertices) points.push_back(o + R * v);
      return shadow_outline(points);
    }
    case ShapeType::halfspace: {
      const Vec3 n = s.normal.normalized(), t(-n.y(), n.x(), 0);
      return {s.offset * n - 100 * t, s.offset * n + 100 * t};
    }
  }
  return {};
}

using Strokes = std::vector<Polyline>;

// The edges of a convex hull between faces that are not coplanar (triangulated faces' diagonals
// left out), each a stroke of two points.
Strokes feature_edges(const TriangleMesh& hull) {
  std::map<std::pair<int, int>, std::vector<Vec3>> normals;
  for (const auto& t : hull.triangles) {
    const Vec3 n = (hull.vertices[t[1]] - hull.vertices[t[0]]).cross(hull.vertices[t[2]] - hull.vertices[t[0]]).normalized();
    for (int k = 0; k < 3; ++k) normals[std::minmax(t[k], t[(k + 1) % 3])].push_back(n);
  }
  Strokes edges;
  for (const auto& [edge, n] : normals)
    if (n.size() != 2 || n[0].dot(n[1]) < 1 - 1e-9) edges.push_back({hull.vertices[edge.first], hull.vertices[edge.second]});
  return edges;
}

// A shape's wireframe in its shape frame (axis z for cylinders, capsules and cones).
Strokes wireframe_in_shape(const Shape& s) {
  const Vec3 x = Vec3::UnitX(), y = Vec3::UnitY(), z = Vec3::UnitZ();
  switch (s.type) {
    case ShapeType::box: {
      const Vec3 h = 0.5 * s.size;
      Strokes out;
      for (const double sz : {-1.0, 1.0}) {
        Polyline face;
        for (const auto& [sx, sy] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}})
          face.push_back(Vec3(sx * h.x(), sy * h.y(), sz * h.z()));
        out.push_back(face);
      }
      for (const auto& [sx, sy] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}})
        out.push_back({Vec3(sx * h.x(), sy * h.y(), -h.z()), Vec3(sx * h.x(), sy * h.y(), h.z())});
      return out;
    }
    case ShapeType::sphere: return {ring(Vec3::Zero(), x, y, s.radius), ring(Vec3::Zero(), y, z, s.radius), ring(Vec3::Zero(), z, x, s.radius)};
    case ShapeType::cylinder:
    case ShapeType::capsule:
    case ShapeType::cone: {
      const double half = 0.5 * s.length, top = s.type == ShapeType::cone ? 0.0 : s.radius;
      Strokes out{ring(-half * z, x, y, s.radius)};
      if (top > 0) out.push_back(ring(half * z, x, y, top));
      for (const Vec3& side : {x, y, Vec3(-x), Vec3(-y)}) out.push_back({-half * z + s.radius * side, half * z + top * side});
      if (s.type == ShapeType::capsule)  // the caps' half circles, over each end
        for (const Vec3& across : {x, y}) {
          out.push_back(ring(half * z, across, z, s.radius, 0, M_PI));
          out.push_back(ring(-half * z, across, z, s.radius, M_PI, 2 * M_PI));
        }
      return out;
    }
    case ShapeType::convex: return feature_edges(*s.hull);
    case ShapeType::halfspace: {
      const Vec3 n = s.normal.normalized();
      const Vec3 t1 = n.unitOrthogonal(), t2 = n.cross(t1);
      Polyline square;
      for (const auto& [a, b] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}, {-1, -1}})
        square.push_back(s.offset * n + 100.0 * (a * t1 + b * t2));
      return {square};
    }
  }
  return {};
}

// Wireframes of a 3-D scene's shapes in their bodies' frames.
void write_wireframes(const std::string& dir, const Scene& scene) {
  CsvWriter csv((fs::path(dir) / "wireframes.csv").string(), {"body", "shape", "stroke", "x", "y", "z"}, scene.output.precision);
  for (const Geometry& g : scene.system.contacts.geometries()) {
    const std::string body = g.body < 0 ? "world" : scene.system.model.bodies[g.body].name;
    const Strokes strokes = wireframe_in_shape(g.shape);
    const bool posed = g.shape.type != ShapeType::halfspace;  // a halfspace's normal and offset are in its body frame
    for (size_t k = 0; k < strokes.size(); ++k)
      for (const Vec3& p : strokes[k]) {
        const Vec3 w = posed ? Vec3(g.shape.position + g.shape.rotation * p) : p;
        char cells[96];
        std::snprintf(cells, sizeof cells, "%zu,%.9g,%.9g,%.9g", k, w.x(), w.y(), w.z());
        csv.line(body + "," + g.name + "," + cells, 6);
      }
  }
  csv.flush();
}


}  // namespace

std::vector<std::string> pose_columns(const Model& model) {
  std::vector<std::string> c{"t"};
  for (const Body& b : model.bodies)
    for (const char* k : model.planar ? std::vector<const char*>{".x", ".y", ".theta"}
                                      : std::vector<const char*>{".x", ".y", ".z", ".qw", ".qx", ".qy", ".qz"})
      c.push_back(b.name + k);
  return c;
}

void pose_vector(const Model& model, const Kinematics& kin, Eigen::VectorXd& out) {
  out.resize(static_cast<Eigen::Index>((model.planar ? 3 : 7) * model.bodies.size()));
  for (size_t b = 0; b < model.bodies.size(); ++b) {
    if (model.planar) {
      out.segment<3>(3 * b) << kin.p[b].x(), kin.p[b].y(), std::atan2(kin.R[b](1, 0), kin.R[b](0, 0));
    } else {
      const Eigen::Quaterniond r(kin.R[b]);
      out.segment<7>(7 * b) << kin.p[b], r.w(), r.x(), r.y(), r.z();
    }
  }
}

void write_outlines(const std::string& dir, const Scene& scene) {
  if (!scene.system.model.planar) return write_wireframes(dir, scene);
  CsvWriter csv((fs::path(dir) / "outlines.csv").string(), {"body", "shape", "x", "y"}, scene.output.precision);
  auto write = [&](const std::string& body, const std::string& shape, const Polyline& p) {
    for (const Vec3& x : p) {
      char cells[64];
      std::snprintf(cells, sizeof cells, "%.9g,%.9g", x.x(), x.y());
      csv.line(body + "," + shape + "," + cells, 4);
    }
  };
  std::vector<bool> has_shape(scene.system.model.bodies.size(), false);
  for (const Geometry& g : scene.system.contacts.geometries()) {
    write(g.body < 0 ? "world" : scene.system.model.bodies[g.body].name, g.name, outline(g.shape));
    if (g.body >= 0) has_shape[g.body] = true;
  }
  for (size_t b = 0; b < scene.system.model.bodies.size(); ++b) {
    if (has_shape[b]) continue;
    const Body& body = scene.system.model.bodies[b];
    Polyline star{Vec3::Zero()};
    auto spoke = [&](const Vec3& x) {
      star.push_back(x);
      star.push_back(Vec3::Zero());
    };
    for (const Body& child : scene.system.model.bodies)
      if (child.parent == static_cast<int>(b)) spoke(child.joint.origin);
    for (const ContactDef& c : scene.system.contacts.contacts())
      if (c.body_a == static_cast<int>(b)) spoke(c.point);
    if (body.mass > 0) spoke(body.com);
    if (star.size() > 1) write(body.name, "skeleton", star);
  }
  csv.flush();
}

PoseWriter::PoseWriter(const std::string& dir, const Scene& scene)
    : scene_(scene),
      kin_(scene.system.model),
      csv_((fs::path(dir) / "poses.csv").string(), pose_columns(scene.system.model), scene.output.precision),
      contacts_((fs::path(dir) / "contact_points.csv").string(), {"t", "contact", "x", "y", "z"}, scene.output.precision),
      events_((fs::path(dir) / "event_contacts.csv").string(), {"t", "contact", "x", "y", "z", "nx", "ny", "nz", "t1x", "t1y", "t1z", "t2x", "t2y", "t2z"},
              scene.output.precision),
      poses_((scene.system.model.planar ? 3 : 7) * scene.system.model.bodies.size()) {}

void PoseWriter::row(const Sample& s) {
  const Model& model = scene_.system.model;
  update_kinematics(model, s.q, kin_);
  pose_vector(model, kin_, poses_);
  csv_.row(s.t, poses_, Eigen::VectorXd(), {});
  touching_contacts(s.t, contacts_, false);
}

void PoseWriter::event_row(const Sample& s) {
  update_kinematics(scene_.system.model, s.q, kin_);
  touching_contacts(s.t, events_, true);
}

void PoseWriter::touching_contacts(double t_now, CsvWriter& out, bool normals) {
  const ContactModel& contacts = scene_.system.contacts;
  if (contacts.size() == 0) return;
  compute_contact_frames(contacts, kin_, frames_);
  const NumberText t(t_now, scene_.output.precision);
  for (int i = 0; i < contacts.size(); ++i) {
    if (frames_[i].phi > scene_.system.contact.distance_tolerance) continue;
    const Vec3 x = 0.5 * (frames_[i].point_a + frames_[i].point_b);
    std::vector<std::string> cells{std::string(t.view()), contacts.contact(i).name};
    for (int k = 0; k < 3; ++k) cells.emplace_back(NumberText(x[k], scene_.output.precision).view());
    if (normals)
      for (const Vec3* axis : {&frames_[i].normal, &frames_[i].tangent1, &frames_[i].tangent2})
        for (int k = 0; k < 3; ++k) cells.emplace_back(NumberText((*axis)[k], scene_.output.precision).view());
    out.text_row(cells);
  }
}

void PoseWriter::flush() {
  csv_.flush();
  contacts_.flush();
  events_.flush();
}

namespace {

// Runs `/usr/bin/python3 TOOL ARGS` where TOOL is $env_var or tools/<name> of this source tree;
// false after logging why when it fails (`what` names the step, `hint` what it needs).
bool run_python_tool(const char* env_var, const char* name, const std::string& args, const char* what,
                     const char* hint) {
  const char* env = std::getenv(env_var);
  const std::string tool = env && *env ? env : std::string(IMPACTSIM_SOURCE_DIR) + "/tools/" + name;
  const std::string command =
      "/usr/bin/python3 " + shell_quote(tool) + " " + args +
      // Its "wrote FILE" lines are information: --quiet silences them, errors still reach stderr.
      (spdlog::get_level() > spdlog::level::info ? " >/dev/null" : " >&2");
  spdlog::info("{}: {}", what, command);
  const int status = std::system(command.c_str());
  if (status != 0) {
    spdlog::error("{} failed (exit {}): {} ({})", what, WIFEXITED(status) ? WEXITSTATUS(status) : -1, command, hint);
    return false;
  }
  return true;
}

}  // namespace

bool run_plot_tool(const std::string& kind, const std::string& dir, const std::string& extra) {
  return run_python_tool("IMPACTSIM_PLOT_TOOL", "plot.py", kind + " " + shell_quote(dir) + (extra.empty() ? "" : " " + extra),
                         "plotting", "the plots need Debian's python3-matplotlib; tools/setup.sh installs it");
}

bool run_view_tool(const std::string& dir, const std::string& color) {
  return run_python_tool("IMPACTSIM_VIEW_TOOL", "view.py",
                         shell_quote(dir) + (color.empty() ? "" : " --color " + shell_quote(color)), "viewing",
                         "the directory needs the files of run, impact or batch --trajectories K written with --view");
}

bool plot_run(const std::string& dir, const Scene& scene) {
  return run_plot_tool("run", dir, "--nq " + std::to_string(scene.system.model.nq));
}

}  // namespace impactsim
