#pragma once
// The files `impact --view` adds beside samples.csv, for tools/view.py:
// - the scene's shapes (outlines.csv or wireframes.csv, app/plot_output.hpp);
// - poses.csv: one row, the bodies' poses at the impact (t, q);
// - event_contacts.csv: the impact's touching contacts with their frames;
// - sample_poses.csv: for each of the first samples, the bodies' poses after `tau` seconds of its
//   post-impact velocity with no force acting (q advanced along v+ by the joints' own
//   integration), columns sample, tau [s], then poses.csv's. tau makes the fastest of those
//   samples move a quarter of the span of the impact's contact points (at least 0.1 m): a picture
//   of where each outcome sends the bodies, not a simulation of what follows.
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/first_impact.hpp"
#include "scenes/scene.hpp"

namespace impactsim {

// Samples drawn in sample_poses.csv at most.
constexpr long kViewSamples = 2000;

void write_impact_view_files(const std::string& dir, const Scene& scene, const ImpactState& impact,
                             const std::vector<Eigen::VectorXd>& v_plus);

// The tau of sample_poses.csv for these post-impact velocities.
double view_tau(const Scene& scene, const ImpactState& impact, const std::vector<Eigen::VectorXd>& v_plus);

}  // namespace impactsim
