// The files of one run: trajectory.csv's columns and rows, events.csv naming contacts and their
// impulses in order, rows on disk at flush() and at events at most 0.2 s apart.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app/run_files.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(RunFiles, RowsAndEventsAreWrittenAsTheyHappen) {
  const fs::path dir = fresh_dir("run_files");
  const Scene s = load_scene(scene("rocking_block.yaml"));
  RunFiles files(dir.string(), s);
  int seen = 0;
  const RunCallbacks cb = files.callbacks([&](const Event&) { ++seen; });
  const Eigen::Vector3d q(0, 1, 0.1), v(0.5, -0.25, 0);
  cb.sample(Sample{0.5, q, v, 1.25, 9.81});
  Event e{.t = 0.5, .kind = EventKind::impact, .contacts = {1, 0}, .law = "sequential", .kinetic_before = 2,
          .kinetic_after = 1, .impulse_n = {0.25, 0.125}, .ordering = {1, 0, 1},
          .impulse_t = {0.0625, -0.03125}, .duration = 0.0};
  // An event 0.2 s or more after the last write-out writes everything out (a run's rows reach the
  // disk while it runs, without a write per row).
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  cb.event(e);
  EXPECT_EQ(seen, 1);
  // On disk already, before the files are closed.
  const auto trajectory = split_lines(read_all(dir / "trajectory.csv"));
  ASSERT_EQ(trajectory.size(), 2u);
  EXPECT_EQ(trajectory[0], "t,block.x,block.y,block.theta,block.vx,block.vy,block.omega,kinetic_energy,potential_energy");
  EXPECT_EQ(trajectory[1], "0.5,0,1,0.1,0.5,-0.25,0,1.25,9.81");
  const auto events = split_lines(read_all(dir / "events.csv"));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1], "0.5,impact,B;A,sequential,2,1,0.25;0.125,B;A;B,0.0625;-0.03125,0");
  EXPECT_EQ(files.trajectory().rows(), 1);
  EXPECT_EQ(files.events().rows(), 1);
  // A row after that is written out by flush() (what run does when the run stops).
  cb.sample(Sample{0.75, q, v, 1.25, 9.81});
  files.flush();
  EXPECT_EQ(split_lines(read_all(dir / "trajectory.csv")).size(), 3u);
}

TEST(RunFiles, AnUnwritableDirectoryIsReportedWithItsPath) {
  const Scene s = load_scene(scene("rocking_block.yaml"));
  try {
    RunFiles files("/proc/impactsim-no-such-dir", s);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/proc/impactsim-no-such-dir"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace impactsim
