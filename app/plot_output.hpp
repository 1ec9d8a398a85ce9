#pragma once
// What `--plot` needs besides the CSV results, and the call of the plotting tool (tools/plot.py,
// run by Debian's /usr/bin/python3 with python3-matplotlib):
// - outlines.csv: each planar scene's shapes as polylines in their body's frame (x, y in metres;
//   body "world" for static ones), bodies without shapes as a skeleton from the body origin to its
//   children's joints, its contact points and its centre of mass;
// - wireframes.csv: each 3-D scene's shapes as strokes in their body's frame (body, shape, stroke,
//   x, y, z in metres): box and cone edges, circles and lines of spheres, cylinders and capsules,
//   the feature edges of convex shapes (those between faces that are not coplanar), a 100 m square
//   for a halfspace (the plot clips it to the bodies' extent);
// - poses.csv: each body's world pose at every output time: planar (x, y [m], theta [rad]) or 3-D
//   (x, y, z [m], qw, qx, qy, qz: body axes to world);
// - contact_points.csv: at every output time, each touching contact (phi at most the distance
//   tolerance) with the midpoint of its two witness points (t [s], contact, x, y, z [m]);
// - event_contacts.csv: the same at the states just before and after each event, with the contact
//   frame (normal nx, ny, nz: unit, from the second body to the first; tangent1 t1x..., tangent2
//   t2x...: the basis of events.csv's impulse_t), where the viewer draws impulses.
#include <memory>
#include <string>

#include "app/csv_writer.hpp"
#include "collision/contact.hpp"
#include "core/state.hpp"
#include "scenes/scene.hpp"

namespace impactsim {

// outlines.csv of a planar scene, wireframes.csv of a 3-D one.
void write_outlines(const std::string& dir, const Scene& scene);

// poses.csv's header: t, then each body's pose coordinates (<body>.x, ...).
std::vector<std::string> pose_columns(const Model& model);
// Each body's world pose at the kinematics' state, as a row of poses.csv has them.
void pose_vector(const Model& model, const Kinematics& kin, Eigen::VectorXd& out);

// poses.csv and contact_points.csv, a row (rows) per output sample; event_contacts.csv at events.
class PoseWriter {
 public:
  PoseWriter(const std::string& dir, const Scene& scene);
  void row(const Sample& s);
  void event_row(const Sample& s);  // a state just before or after an event
  void flush();

 private:
  // The touching contacts at the kinematics' state as rows of `out` (with their normals).
  void touching_contacts(double t, CsvWriter& out, bool normals);

  const Scene& scene_;
  Kinematics kin_;
  CsvWriter csv_;
  CsvWriter contacts_;
  CsvWriter events_;
  Eigen::VectorXd poses_;
  std::vector<ContactFrame> frames_;
};

// Runs `plot.py <kind> <dir> <extra>`; false after logging why when it fails. The tool is
// IMPACTSIM_PLOT_TOOL if set, else tools/plot.py of this source tree.
bool run_plot_tool(const std::string& kind, const std::string& dir, const std::string& extra = "");
// `view.py DIR`: DIR/view.html from a run's or a batch's files; false after logging why when it
// fails. The tool is IMPACTSIM_VIEW_TOOL if set, else tools/view.py of this source tree.
// `color`: the runs.csv column that colours a batch's ghosts ("" = the tool's default).
bool run_view_tool(const std::string& dir, const std::string& color = "");
// The plots of a run's files in dir (`plot.py run DIR --nq N`).
bool plot_run(const std::string& dir, const Scene& scene);

}  // namespace impactsim
