#include "app/impact_view.hpp"

#include <algorithm>
#include <filesystem>

#include "app/csv_writer.hpp"
#include "app/plot_output.hpp"
#include "core/contact_data.hpp"
#include "core/dynamics.hpp"
#include "core/kinematics.hpp"

namespace impactsim {

double view_tau(const Scene& scene, const ImpactState& impact, const std::vector<Eigen::VectorXd>& v_plus) {
  const Model& model = scene.system.model;
  Kinematics kin(model);
  update_kinematics(model, impact.q, kin);
  std::vector<ContactFrame> frames;
  compute_contact_frames(scene.system.contacts, kin, frames);
  double span = 0.1;
  for (int a : impact.space.ids)
    for (int b : impact.space.ids) span = std::max(span, (frames[a].point_a - frames[b].point_a).norm());
  double fastest = 0.0;
  for (const Eigen::VectorXd& v : v_plus) fastest = std::max(fastest, v.cwiseAbs().maxCoeff());
  return fastest > 0 ? 0.25 * span / fastest : 1.0;
}

void write_impact_view_files(const std::string& dir, const Scene& scene, const ImpactState& impact,
                             const std::vector<Eigen::VectorXd>& v_plus) {
  const Model& model = scene.system.model;
  write_outlines(dir, scene);
  {
    PoseWriter poses(dir, scene);
    const auto [K, U] = energies(model, impact.q, impact.v_minus);
    const Sample at{impact.t, impact.q, impact.v_minus, K, U};
    poses.row(at);
    poses.event_row(at);
    poses.flush();
  }
  std::vector<std::string> columns = pose_columns(model);
  columns.front() = "tau";
  columns.insert(columns.begin(), "sample");
  CsvWriter csv((std::filesystem::path(dir) / "sample_poses.csv").string(), columns, scene.output.precision);
  const double tau = view_tau(scene, impact, v_plus);
  Kinematics kin(model);
  Eigen::VectorXd q(model.nq), pose;
  for (size_t i = 0; i < v_plus.size(); ++i) {
    integrate_configuration(model, impact.q, v_plus[i], tau, q);
    update_kinematics(model, q, kin);
    pose_vector(model, kin, pose);
    Eigen::VectorXd row(pose.size() + 1);
    row << tau, pose;
    csv.row(static_cast<double>(i), row, Eigen::VectorXd(), {});
  }
  csv.flush();
}

}  // namespace impactsim
