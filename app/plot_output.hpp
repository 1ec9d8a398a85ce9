#pragma once
// What `--plot` needs besides the CSV results, and the call of the plotting tool (tools/plot.py,
// run by Debian's /usr/bin/python3 with python3-matplotlib):
// - outlines.csv: each planar scene's shapes as polylines in their body's frame (x, y in metres;
//   body "world" for static ones), bodies without shapes as a skeleton from the body origin to its
//   children's joints, its contact points and its centre of mass;
// - poses.csv: each body's planar world pose (x, y [m], theta [rad]) at every output time.
#include <memory>
#include <string>

#include "app/csv_writer.hpp"
#include "core/state.hpp"
#include "scenes/scene.hpp"

namespace impactsim {

void write_outlines(const std::string& dir, const Scene& scene);

class PoseWriter {
 public:
  PoseWriter(const std::string& dir, const Scene& scene);
  void row(const Sample& s);
  void flush() { csv_.flush(); }

 private:
  const Scene& scene_;
  Kinematics kin_;
  CsvWriter csv_;
  Eigen::VectorXd poses_;
};

// Runs `plot.py <kind> <dir> <extra>`; false after logging why when it fails. The tool is
// IMPACTSIM_PLOT_TOOL if set, else tools/plot.py of this source tree.
bool run_plot_tool(const std::string& kind, const std::string& dir, const std::string& extra = "");
// The plots of a run's files in dir (`plot.py run DIR --nq N`).
bool plot_run(const std::string& dir, const Scene& scene);

}  // namespace impactsim
