// The faults a hostile week of use found (issue 62), each as its command line: every one ends with
// a clear message and its exit code, never a crash, a half-written file or a result made up.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

const std::string kScenes = std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/";

// `impactsim ARGS` under a file-size limit of `blocks` 512-byte blocks, SIGXFSZ ignored: writes
// past the limit fail part way through as on a full disk (no tmpfs to mount in a test).
// blocks: sh's ulimit -f, in 512-byte blocks.
Result impactsim_on_a_small_disk(int blocks, const std::string& args) {
  return shell("trap '' XFSZ; ulimit -f " + std::to_string(blocks) + "; exec " + IMPACTSIM_BINARY + " " + args);
}

// Every line of a CSV file has the header's number of cells, and the file ends with a newline.
void expect_whole_rows(const fs::path& path) {
  const std::string text = read_all(path);
  ASSERT_FALSE(text.empty()) << path;
  EXPECT_EQ(text.back(), '\n') << path;
  std::istringstream lines(text);
  std::string header;
  std::getline(lines, header);
  const auto cells = std::count(header.begin(), header.end(), ',');
  for (std::string line; std::getline(lines, line);) EXPECT_EQ(std::count(line.begin(), line.end(), ','), cells) << line;
}

// impactsim started in the background, its pid, stdout and stderr into dir.
struct Background {
  pid_t pid = -1;
  fs::path dir;
  // Waits for it to end: its exit code, or 128 + the signal that ended it.
  int wait() {
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
};

Background start(const std::string& args, const fs::path& dir) {
  Background b{fork(), dir};
  if (b.pid == 0) {
    const int out = ::open((dir / "out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open((dir / "err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(err, 2);
    const std::string cmd = std::string("exec ") + IMPACTSIM_BINARY + " " + args;
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return b;
}

// Waits (up to a minute) until the directory's lock file names pid: the command holds the lock.
bool holds_lock(const fs::path& dir, pid_t pid) {
  for (int k = 0; k < 6000; ++k) {
    if (read_all(dir / ".impactsim.lock") == std::to_string(pid)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// Item 1: a contact point at 1e308 aborted the run (exit 134, an uncaught NearSetLeft); so did a
// shape at -1e308 in compass_gait_3d.
TEST(Faults, CoordinatesPastTheBoundsAreSceneErrors) {
  const fs::path out = fresh_path("far_point");
  const Result point = impactsim("run " + kScenes + "rocking_block.yaml --set 'contacts[0].point=[1e308, -1, 0]' -o " +
                                 out.string());
  EXPECT_EQ(point.code, 2) << point.err;
  EXPECT_NE(point.err.find("contacts[0].point[0]: must be within 1e+06 m of the origin"), std::string::npos) << point.err;
  EXPECT_FALSE(fs::exists(out / "trajectory.csv"));
  const Result shape = impactsim("run " + kScenes + "compass_gait_3d.yaml --set 'bodies[1].shapes[0].position=[0, 0, -1e308]' -o " +
                                 out.string());
  EXPECT_EQ(shape.code, 2) << shape.err;
  EXPECT_NE(shape.err.find("bodies[1].shapes[0].position[2]"), std::string::npos) << shape.err;
}

// Item 2: a full disk during batch --format hdf5 crashed (SIGSEGV) and left a corrupt runs.h5.
TEST(Faults, AFullDiskLeavesNoRunsH5AndRunsCsvWhole) {
  const fs::path out = fresh_path("h5_full");
  // 128 KiB a file: runs.csv (66 KB) fits, runs.h5 (166 KB) does not.
  const Result r = impactsim_on_a_small_disk(256, "batch " + kScenes + "rocking_block.yaml --runs 400 --format hdf5 -q -o " +
                                                      out.string());
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("HDF5 write failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("runs.h5 is not written"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out / "runs.h5"));
  EXPECT_FALSE(fs::exists(out / "runs.h5.partial"));
  expect_whole_rows(out / "runs.csv");
  const std::string runs = read_all(out / "runs.csv");
  EXPECT_EQ(std::count(runs.begin(), runs.end(), '\n'), 401);
}

// Item 10: a full disk during run cut trajectory.csv's last row off.
TEST(Faults, AFullDiskDuringARunKeepsWholeRows) {
  const fs::path out = fresh_path("run_full");
  const Result r = impactsim_on_a_small_disk(64, "run " + kScenes + "rocking_block.yaml --set simulation.t_end=30 -q -o " +
                                                     out.string());
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("trajectory.csv: write failed"), std::string::npos) << r.err;
  expect_whole_rows(out / "trajectory.csv");
}

// Item 10 for batch: a full disk cut runs.csv inside a row; it is cut back to its last whole chunk.
TEST(Faults, AFullDiskDuringABatchKeepsWholeRows) {
  const fs::path out = fresh_path("batch_full");
  const Result r = impactsim_on_a_small_disk(64, "batch " + kScenes + "rocking_block.yaml --runs 400 -q -o " + out.string());
  EXPECT_EQ(r.code, 4) << r.err;
  EXPECT_NE(r.err.find("runs.csv: write failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cut back to its last whole row"), std::string::npos) << r.err;
  expect_whole_rows(out / "runs.csv");
  const std::string runs = read_all(out / "runs.csv");
  EXPECT_GT(std::count(runs.begin(), runs.end(), '\n'), 1);  // the chunks before the full disk are kept
}

// Item 3: a URDF 100,000 elements deep overflowed the stack of `check`.
TEST(Faults, ADeepUrdfIsRefusedBeforeParsing) {
  const fs::path dir = fresh_dir("deep_urdf");
  std::string deep = "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n";
  for (int k = 0; k < 100000; ++k) deep += "<a>";
  write_file(dir / "robot.urdf", deep + "\n</robot>\n");
  write_file(dir / "scene.yaml", "robot: {urdf: robot.urdf, base: free}\nsimulation: {t_end: 1}\n");
  const Result r = impactsim("check " + (dir / "scene.yaml").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("robot.urdf:3:1: xml: elements nest more than 100 deep"), std::string::npos) << r.err;
}

// Item 4: two batches on one directory both exited 0 with every run twice in runs.csv. The second
// is refused while the first holds the directory. Item 9: SIGTERM then ends the first with a
// summary.json that says how to resume, and the resumed batch is the uninterrupted one.
TEST(Faults, OneWriterPerDirectoryAndASignalLeavesAResumableBatch) {
  const fs::path out = fresh_path("two_writers"), whole = fresh_path("uninterrupted"), io = fresh_dir("two_writers_io");
  const std::string batch = "batch " + kScenes + "rocking_block.yaml --runs 6000 --threads 1 --seed 3 -q -o ";
  Background first = start(batch + out.string(), io);
  ASSERT_TRUE(holds_lock(out, first.pid));
  const Result second = impactsim(batch + out.string() + " --force");
  EXPECT_EQ(second.code, 4) << second.err;
  EXPECT_NE(second.err.find("is being written by another impactsim command (pid " + std::to_string(first.pid) + ")"),
            std::string::npos)
      << second.err;
  kill(first.pid, SIGTERM);
  EXPECT_EQ(first.wait(), 128 + SIGTERM) << read_all(io / "err");
  const std::string err = read_all(io / "err");
  EXPECT_NE(err.find("interrupted by SIGTERM"), std::string::npos) << err;
  const nlohmann::json summary = nlohmann::json::parse(read_all(out / "summary.json"));
  EXPECT_EQ(summary.at("interrupted").at("signal"), "SIGTERM");
  const std::string resume = summary.at("interrupted").at("resume");
  EXPECT_NE(resume.find("--resume"), std::string::npos) << resume;
  EXPECT_LT(summary.at("runs").get<long>(), 6000);
  EXPECT_EQ(nlohmann::json::parse(read_all(out / "metadata.json")).at("status"), "interrupted");
  expect_whole_rows(out / "runs.csv");
  // The resume command as recorded (its program and scene as the batch was given them).
  const Result resumed = impactsim(resume.substr(resume.find(' ') + 1));
  EXPECT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_EQ(impactsim(batch + whole.string()).code, 0);
  EXPECT_EQ(read_all(out / "runs.csv"), read_all(whole / "runs.csv"));
  EXPECT_EQ(nlohmann::json::parse(read_all(out / "summary.json")).at("runs"), 6000);
}

// Item 5: max_step 1e-300 fell back to fixed steps without a word. It is a scene error now, and a
// run that steps through an instant says so and counts it.
TEST(Faults, FixedStepFallbacksAreAnnouncedAndCounted) {
  const fs::path out = fresh_path("fallback");
  const Result tiny = impactsim("run " + kScenes + "rocking_block.yaml --set simulation.max_step=1e-300 -o " + out.string());
  EXPECT_EQ(tiny.code, 2) << tiny.err;
  EXPECT_NE(tiny.err.find("simulation.max_step: t_end / max_step = 1e+300 steps, more than simulation.max_steps"),
            std::string::npos)
      << tiny.err;
  const Result run = impactsim("run " + kScenes + "dominoes.yaml -o " + out.string());
  EXPECT_EQ(run.code, 0) << run.err;
  const long steps = nlohmann::json::parse(read_all(out / "summary.json")).at("time_steps");
  EXPECT_GT(steps, 0);
  EXPECT_NE(run.err.find("[warning] " + std::to_string(steps) + " of this run's events were steps"), std::string::npos)
      << run.err;
  // Their lengths summed: each at most painleve_step (dominoes' steps are single ones, not a long
  // stretch of chatter), none empty.
  const double stepped = nlohmann::json::parse(read_all(out / "summary.json")).at("stepped_time");
  EXPECT_GT(stepped, 0.0);
  EXPECT_LE(stepped, static_cast<double>(steps) * 1e-4 * (1 + 1e-12));
  // events.csv's step rows carry those lengths (`duration`, to the file's precision); every other
  // event takes no time.
  double rows_sum = 0.0;
  long step_rows = 0;
  const std::vector<std::string> lines = split_lines(read_all(out / "events.csv"));
  ASSERT_EQ(lines[0].substr(lines[0].rfind(',') + 1), "duration");
  for (size_t k = 1; k < lines.size(); ++k) {
    const double duration = std::stod(lines[k].substr(lines[k].rfind(',') + 1));
    if (lines[k].find(",step,") != std::string::npos) {
      ++step_rows;
      rows_sum += duration;
      EXPECT_GT(duration, 0.0) << lines[k];
      EXPECT_LE(duration, 1e-4 * (1 + 1e-12)) << lines[k];
    } else {
      EXPECT_EQ(duration, 0.0) << lines[k];
    }
  }
  EXPECT_EQ(step_rows, steps);
  EXPECT_NEAR(rows_sum, stepped, 1e-9 * stepped);
  const fs::path runs = fresh_path("fallback_batch");
  const Result batch = impactsim("batch " + kScenes + "dominoes.yaml --runs 1 -q -o " + runs.string());
  EXPECT_EQ(batch.code, 0) << batch.err;
  EXPECT_NE(batch.err.find("1 of 1 runs left the exact event path"), std::string::npos) << batch.err;
  EXPECT_EQ(nlohmann::json::parse(read_all(runs / "summary.json")).at("time_step_runs"), 1);
}

// Items 6 and 8: nonsense that ran to exit 0.
TEST(Faults, NonsenseIsRefusedWithItsKey) {
  const fs::path out = fresh_path("nonsense");
  const std::string rocking = "run " + kScenes + "rocking_block.yaml -o " + out.string() + " ";
  const Result gravity = impactsim("run " + kScenes + "rocking_block_random_materials.yaml --set 'world.gravity=[0, 1e308, 0]' -o " +
                                   out.string());
  EXPECT_EQ(gravity.code, 2) << gravity.err;
  EXPECT_NE(gravity.err.find("world.gravity: each component must be within"), std::string::npos) << gravity.err;
  const Result tagged = impactsim(rocking + "--set 'bodies[0].mass=!!str 2'");
  EXPECT_EQ(tagged.code, 2);
  EXPECT_NE(tagged.err.find("bodies[0].mass: expected a number, found the string \"2\""), std::string::npos) << tagged.err;
  const Result digits = impactsim(rocking + "--set 'bodies[0].mass=1" + std::string(100000, '0') + "'");
  EXPECT_EQ(digits.code, 2);
  EXPECT_NE(digits.err.find("at most 100 characters, found one of 100001"), std::string::npos);
  const Result documents = impactsim(rocking + "--set \"$(printf 'materials.mu=0.2\\n---\\n0.9')\"");
  EXPECT_EQ(documents.code, 2);
  EXPECT_NE(documents.err.find("materials.mu: a --set value holds one YAML document; this one has more than one"), std::string::npos) << documents.err;
  const Result law = impactsim(rocking + "--law ''");
  EXPECT_EQ(law.code, 1);
  EXPECT_NE(law.err.find("--law: must not be empty"), std::string::npos) << law.err;
  EXPECT_FALSE(fs::exists(out / "trajectory.csv"));
}

// Item 7: a second joint onto a link (a closed loop) was dropped without a word.
TEST(Faults, AClosedLoopInAUrdfIsRefusedAtItsJoint) {
  const fs::path dir = fresh_dir("loop_urdf");
  const std::string link = R"(<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>)";
  std::string urdf = "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n";
  for (const char* name : {"a", "b", "c"}) urdf += std::string("<link name=\"") + name + "\">" + link + "</link>\n";
  urdf += R"(<joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
<joint name="bc" type="fixed"><parent link="b"/><child link="c"/></joint>
<joint name="ac" type="fixed"><parent link="a"/><child link="c"/></joint>
</robot>
)";
  write_file(dir / "robot.urdf", urdf);
  write_file(dir / "scene.yaml", "robot: {urdf: robot.urdf, base: free}\nsimulation: {t_end: 1}\n");
  const Result r = impactsim("check " + (dir / "scene.yaml").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("robot.urdf:8:1: joint 'ac': link 'c' is already the child of joint 'bc': a closed loop"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace impactsim
