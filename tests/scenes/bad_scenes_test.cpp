// Every malformed scene in tests/scenes/bad gives its own clear error naming file, line, column and
// key. Each fixture marks the line the error must point at with "# error here".
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <sys/stat.h>
#include <unistd.h>

#include "scenes/scene.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

struct BadScene {
  std::string file;
  std::string key;      // expected key path ("" for file-level errors)
  std::string message;  // a fragment the message must contain
};

std::string fixture(const std::string& name) { return std::string(IMPACTSIM_SOURCE_DIR) + "/tests/scenes/bad/" + name; }

void PrintTo(const BadScene& b, std::ostream* os) { *os << b.file; }

int marked_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find("# error here") != std::string::npos) return n;
  return 0;
}

const std::vector<BadScene> kBadScenes = {

        BadScene{"syntax_error.yaml", "", "YAML syntax error"},
        BadScene{"unknown_top_key.yaml", "bodys", "unknown key 'bodys'"},
        BadScene{"missing_bodies.yaml", "bodies", "missing required key 'bodies'"},
        BadScene{"missing_t_end.yaml", "simulation.t_end", "missing required key 't_end'"},
        BadScene{"negative_mass.yaml", "bodies[0].mass", "must not be negative"},
        BadScene{"slow_slip_speed_negative.yaml", "simulation.contact.slow_slip_speed", "must not be negative"},
        BadScene{"inertia_not_psd.yaml", "bodies[0].inertia", "not positive semi-definite"},
        BadScene{"inertia_triangle.yaml", "bodies[0].inertia", "triangle inequality"},
        BadScene{"zero_quaternion.yaml", "bodies[0].initial.qw", "quaternion is zero"},
        BadScene{"mass_is_a_string.yaml", "bodies[0].mass", "expected a number, found the string \"heavy\""},
        BadScene{"nan_t_end.yaml", "simulation.t_end", "must be a finite number"},
        BadScene{"unknown_joint_type.yaml", "bodies[0].joint.type", "unknown joint type 'hinge'"},
        BadScene{"unknown_parent.yaml", "bodies[0].parent", "unknown parent 'torso'"},
        BadScene{"duplicate_body.yaml", "bodies[1].name", "duplicate body name 'ball'"},
        BadScene{"duplicate_key.yaml", "bodies[0].mass", "duplicate key 'mass'"},
        BadScene{"singular_mass_matrix.yaml", "bodies", "mass matrix is singular"},
        BadScene{"com_too_short.yaml", "bodies[0].com", "expected a list of 3 numbers"},
        BadScene{"unknown_initial_coordinate.yaml", "bodies[0].initial.x", "unknown key 'x'"},
        BadScene{"halfspace_on_body.yaml", "bodies[0].shapes[0]", "halfspace is infinite"},
        BadScene{"density_without_shapes.yaml", "bodies[0].density", "needs at least one shape"},
        BadScene{"declared_planar_but_free.yaml", "world.planar", "declared planar"},
        BadScene{"precision_out_of_range.yaml", "output.precision", "from 3 to 17"},
        BadScene{"angle_given_twice.yaml", "bodies[0].initial.theta_deg", "not both"},
        BadScene{"not_a_map.yaml", "", "expected a map"},
        BadScene{"unknown_shape_type.yaml", "bodies[0].shapes[0].type", "unknown shape type 'blob'"},
        BadScene{"missing_inertia.yaml", "bodies[0]", "missing required key 'inertia'"},
        BadScene{"negative_box_size.yaml", "bodies[0].shapes[0].size", "must be positive"},
        BadScene{"zero_axis.yaml", "bodies[0].joint.axis", "non-zero vector"},
        BadScene{"contact_unknown_with.yaml", "contacts[0].with", "unknown shape 'floor'"},
        BadScene{"contact_duplicate_name.yaml", "contacts[1].name", "duplicate contact name 'A'"},
        BadScene{"restitution_above_one.yaml", "materials.e", "between 0 and 1"},
        BadScene{"unknown_law.yaml", "simulation.law", "unknown impact law 'newton'"},
        BadScene{"friction_directions_too_few.yaml", "simulation.contact.friction_directions", "from 3 to 64"},
        BadScene{"friction_cone_unknown.yaml", "simulation.contact.friction_cone", "must be `circular` or `polygon`, not 'square'"},
        BadScene{"randomize_quaternion.yaml", "randomize.ball.qw", "quaternion components"},
        BadScene{"randomize_unknown_coordinate.yaml", "randomize.ball.z", "unknown key 'ball.z'"},
        BadScene{"randomize_inverted_range.yaml", "randomize.ball.x.uniform", "lower end is above"},
        BadScene{"unknown_sequential_order.yaml", "simulation.sequential.order",
                 "expected cyclic, random or list, found 'zigzag'"},
        BadScene{"unknown_routh_solution.yaml", "simulation.routh.solution", "expected lemke or random, found 'best'"},
        BadScene{"outcome_unknown_contact.yaml", "outcomes[0].closed", "unknown contact 'B'"},
        BadScene{"outcome_unknown_coordinate.yaml", "outcomes[0].final", "unknown coordinate 'ball.z'"},
        BadScene{"outcome_two_kinds.yaml", "outcomes[1]", "exactly one of final"},
        BadScene{"outcome_two_lift_kinds.yaml", "outcomes[1]", "or closed, impacts, lifts or first_lift: <contact>"},
        BadScene{"outcome_lifts_unknown_contact.yaml", "outcomes[1].lifts", "unknown contact 'B'"},
        BadScene{"contact_ahead_of_unknown.yaml", "contacts[0].only_ahead_of", "unknown contact 'B'"},
        BadScene{"pin_with_event_driven.yaml", "constraints[0]", "pins need integrator: time-stepping or drumwright"},
        BadScene{"pin_unknown_body.yaml", "constraints[0].body", "unknown body 'rod'"},
        BadScene{"drumwright_lcp_circular.yaml", "simulation.drumwright.cone", "the exact LCP takes a polyhedral cone"},
        BadScene{"unknown_integrator.yaml", "simulation.integrator",
                 "expected event-driven, time-stepping or drumwright, found 'rk4'"},
        BadScene{"unknown_time_stepping_scheme.yaml", "simulation.time_stepping.scheme",
                 "expected anitescu-potra or trapezoidal, found 'midpoint'"},
        // Once accepted silently (issue: nothing lost, nothing invented).
        BadScene{"null_value.yaml", "bodies[0].initial.y", "has no value"},
        BadScene{"null_tilde.yaml", "simulation.rtol", "has no value"},
        BadScene{"integer_wraps.yaml", "simulation.routh.steps", "from 1 to 2000000000, found 4294967297"},
        BadScene{"integer_too_large.yaml", "simulation.routh.steps", "from 1 to 2000000000, found 1e10"},
        BadScene{"integer_negative_wrap.yaml", "simulation.sequential.max_impacts", "found -4294967295"},
        BadScene{"outcome_named_like_a_column.yaml", "outcomes[0].name", "a column runs.csv always has"},
        BadScene{"outcome_named_like_a_contact_column.yaml", "outcomes[0].name", "the column runs.csv has for contact 'A'"},
        BadScene{"outcome_deg_on_a_length.yaml", "outcomes[0].final", "'ball.y' is not an angle"},
        BadScene{"randomize_deg_on_a_length.yaml", "randomize.ball.x_deg", "unknown key 'ball.x_deg'"},
        BadScene{"randomize_angle_twice.yaml", "randomize.ball.theta_deg", "give ball.theta or ball.theta_deg, not both"},
        BadScene{"randomize_too_wide.yaml", "randomize.ball.x.uniform", "too wide"},
        BadScene{"two_documents.yaml", "", "one YAML document"},
        BadScene{"stray_comma.yaml", "", "unexpected ',' outside any list or map"},
        BadScene{"starts_penetrating.yaml", "contacts", "contact 'A' starts 5 m deep"},
        BadScene{"infinite_energy.yaml", "bodies", "energy is not a finite number"},
        BadScene{"too_many_rows.yaml", "simulation.output_interval", "1e+09 output rows, more than 10000000"},
        BadScene{"too_many_fixed_steps.yaml", "simulation.time_stepping.h", "more than simulation.max_steps"},
        BadScene{"name_too_long.yaml", "bodies[0].name", "at most 100 characters"},
        BadScene{"contact_name_with_comma.yaml", "contacts[0].name", "contact names use letters"},
        BadScene{"collide_body_without_shapes.yaml", "collide[0].bodies", "body 'ball' has no shapes"},
        BadScene{"collide_not_all.yaml", "collide", "expected `all` or a list of {bodies: [a, b]} entries"},
        BadScene{"mesh_missing_file.yaml", "bodies[0].shapes[0].file", "no such mesh file"},
        // Issue 62: each once crashed a run or ran to nonsense with exit 0.
        BadScene{"contact_point_too_far.yaml", "contacts[0].point[0]", "must be within 1e+06 m of the origin"},
        BadScene{"shape_too_far.yaml", "bodies[0].shapes[0].position[2]", "must be within 1e+06 m of the origin"},
        BadScene{"gravity_overflows.yaml", "world.gravity", "each component must be within 1e+06 m/s^2"},
        BadScene{"mass_tagged_string.yaml", "bodies[0].mass", "expected a number, found the string \"2\""},
        BadScene{"number_too_long.yaml", "bodies[0].mass", "at most 100 characters, found one of 101"},
        BadScene{"max_step_cannot_reach_t_end.yaml", "simulation.max_step", "more than simulation.max_steps"}};

class BadSceneTest : public ::testing::TestWithParam<BadScene> {};

TEST_P(BadSceneTest, ReportsFileLineKeyAndMessage) {
  const BadScene& bad = GetParam();
  const std::string path = fixture(bad.file);
  try {
    load_scene(path);
    FAIL() << bad.file << " loaded without error";
  } catch (const SceneError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.key(), bad.key) << what;
    EXPECT_NE(e.message().find(bad.message), std::string::npos) << what;
    EXPECT_EQ(e.line(), marked_line(path)) << what;
    EXPECT_GT(e.column(), 0) << what;
    // The one-line form a user sees starts with file:line:column.
    EXPECT_EQ(what.rfind(path + ":" + std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": ", 0), 0u)
        << what;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, BadSceneTest, ::testing::ValuesIn(kBadScenes),
    [](const auto& info) {
      std::string name = info.param.file.substr(0, info.param.file.find('.'));
      return name;
    });

TEST(BadScenes, EveryFixtureIsCovered) {
  // A fixture added without a table entry would silently go untested.
  for (const auto& entry : std::filesystem::directory_iterator(fixture(""))) {
    const std::string name = entry.path().filename().string();
    if (name == "empty_file.yaml") continue;  // tested on its own below: it has no line to point at
    bool listed = false;
    for (const BadScene& b : kBadScenes) listed = listed || b.file == name;
    EXPECT_TRUE(listed) << name;
  }
  EXPECT_GE(kBadScenes.size(), 15u);
}

TEST(BadScenes, MissingFileNamesThePath) {
  try {
    load_scene("/nonexistent/scene.yaml");
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/scene.yaml");
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
  }
}

// A pipe or a device never ends: `check` and `run` once hung on them.
TEST(BadScenes, OnlyARegularFileOfBoundedSizeIsRead) {
  auto message = [](const std::string& path) {
    try {
      load_scene(path);
    } catch (const SceneError& e) {
      EXPECT_EQ(e.file(), path);
      return e.message();
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("/dev/zero").find("not a regular file"), std::string::npos);
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("scene_files_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string fifo = (dir / "fifo.yaml").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(message(fifo).find("not a regular file"), std::string::npos);
  EXPECT_NE(message(dir.string()).find("not a regular file"), std::string::npos);
  const std::filesystem::path huge = dir / "huge.yaml";
  std::ofstream(huge) << "name: huge\n";
  std::filesystem::resize_file(huge, kMaxSceneBytes + 1);
  EXPECT_NE(message(huge.string()).find("larger than 16 MiB"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(BadScenes, EmptyFileIsNotAScene) {
  try {
    load_scene(fixture("empty_file.yaml"));
    FAIL();
  } catch (const SceneError& e) {
    EXPECT_NE(e.message().find("expected a map"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace impactsim
