// The files of `impact --view`: the impact's poses and contact frames, and each sample's bodies
// advanced along its post-impact velocity for tau seconds.
#include <gtest/gtest.h>

#include "app/impact_view.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(ImpactView, SamplePosesAdvanceTheImpactPoseAlongEachVelocity) {
  const Scene rocking = load_scene(scene("rocking_block.yaml"));
  ImpactState impact;
  ASSERT_TRUE(find_first_impact(rocking.system, rocking.initial, impact));
  // Corners A and B are 1 m apart: the fastest sample (0.2 rad/s) turns the block by 0.25 * 1 m / 0.2.
  const std::vector<Eigen::VectorXd> v_plus{Eigen::Vector3d(0.1, 0, 0), Eigen::Vector3d(0, 0.05, 0.2)};
  const double tau = view_tau(rocking, impact, v_plus);
  EXPECT_NEAR(tau, 0.25 * 1.0 / 0.2, 1e-9);
  const fs::path dir = fresh_dir("impact_view");
  write_impact_view_files(dir.string(), rocking, impact, v_plus);
  for (const char* file : {"outlines.csv", "poses.csv", "event_contacts.csv"}) EXPECT_TRUE(fs::exists(dir / file)) << file;
  const auto lines = split_lines(read_all(dir / "sample_poses.csv"));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "sample,tau,block.x,block.y,block.theta");
  const auto first = split(lines[1]), second = split(lines[2]);
  EXPECT_NEAR(std::stod(first[2]), impact.q[0] + 0.1 * tau, 1e-9);
  EXPECT_NEAR(std::stod(first[4]), impact.q[2], 1e-12);
  EXPECT_NEAR(std::stod(second[3]), impact.q[1] + 0.05 * tau, 1e-9);
  EXPECT_NEAR(std::stod(second[4]), impact.q[2] + 0.2 * tau, 1e-9);
  // Both corners touch at the impact: their frames are in event_contacts.csv, normals up.
  const auto contacts = split_lines(read_all(dir / "event_contacts.csv"));
  ASSERT_EQ(contacts.size(), 3u);
  EXPECT_EQ(split(contacts[1])[6], "1");
}

}  // namespace
}  // namespace impactsim
