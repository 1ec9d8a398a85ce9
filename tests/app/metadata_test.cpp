// metadata.json: what each command records about where its results came from, and that a failed
// run still leaves it, marked failed; impactsim --version.
#include "app/metadata.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/version.hpp"
#include "scenes/sha256.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;
using Json = nlohmann::json;

Json read_metadata(const fs::path& dir) { return Json::parse(read_all(dir / "metadata.json")); }

TEST(Metadata, CommandLinesAreQuotedAsAShellNeedsThem) {
  const char* argv[] = {"impactsim", "run", "my scene.yaml", "--set", "it's", ""};
  EXPECT_EQ(command_line_text(6, argv), "impactsim run 'my scene.yaml' --set 'it'\\''s' ''");
}

TEST(Metadata, ARunRecordsVersionSceneSettingsAndTime) {
  const fs::path dir = fresh_path("run");
  const Result r = impactsim("run " + scene("rocking_block.yaml") + " --law anitescu-potra --seed 42 -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const Json m = read_metadata(dir);
  EXPECT_EQ(m["impactsim"]["version"], impactsim_version());
  EXPECT_EQ(m["impactsim"]["commit"], impactsim_commit());
  EXPECT_EQ(m["command"], "run");
  EXPECT_NE(m["command_line"].get<std::string>().find("--law anitescu-potra --seed 42"), std::string::npos);
  EXPECT_EQ(m["scene"]["path"], scene("rocking_block.yaml"));
  const Scene s = load_scene(scene("rocking_block.yaml"));
  EXPECT_EQ(m["scene"]["sha256"], s.text_sha256);
  EXPECT_EQ(m["settings"]["law"], "anitescu-potra");  // --law over the scene's routh
  EXPECT_EQ(m["settings"]["seed"], 42);
  EXPECT_EQ(m["settings"]["integrator"], "event-driven");
  EXPECT_FALSE(m["settings"].contains("energy_check"));
  EXPECT_EQ(m["settings"]["rtol"], s.system.simulation.ode.rtol);
  EXPECT_EQ(m["settings"]["contact"]["v_zeno"], s.system.contact.v_zeno);
  EXPECT_EQ(m["settings"]["contact"]["painleve_step"], s.system.contact.painleve_step);
  EXPECT_EQ(m["settings"]["contact"]["painleve_step_max"], s.system.contact.painleve_step_max);
  EXPECT_EQ(m["settings"]["contact"]["slow_slip_speed"], s.system.contact.slow_slip_speed);
  EXPECT_EQ(m["settings"]["contact"]["friction_cone"], s.system.contact.circular_cone ? "circular" : "polygon");
  EXPECT_EQ(m["status"], "ok");
  EXPECT_GE(m["wall_seconds"].get<double>(), 0.0);
  const std::string started = m["started"];
  ASSERT_EQ(started.size(), 20u);  // 2026-11-23T16:44:02Z
  EXPECT_EQ(started[10], 'T');
  EXPECT_EQ(started.back(), 'Z');
  EXPECT_FALSE(m["host"].get<std::string>().empty());
}

// --set overrides reach the run and are recorded; the scene's SHA-256 is that of the overridden text.
// The mesh a scene reads is part of what a result depends on: metadata.json and `check` name it with
// its SHA-256, and a batch refuses to resume after the file changed.
TEST(Metadata, MeshFilesAreRecordedAndAChangedOneStopsAResume) {
  const fs::path dir = fresh_dir("mesh_files");
  fs::create_directories(dir / "meshes");
  fs::copy_file(scene("mesh_toss.yaml"), dir / "toss.yaml");
  fs::copy_file(scene("meshes/chamfered_box.obj"), dir / "meshes" / "chamfered_box.obj");
  const std::string mesh = (dir / "meshes" / "chamfered_box.obj").string();
  const std::string batch = "batch " + (dir / "toss.yaml").string() + " --runs 2 --threads 1 --quiet -o " + (dir / "out").string();
  const Result first = impactsim(batch);
  ASSERT_EQ(first.code, 0) << first.err;
  const Json m = Json::parse(read_all(dir / "out" / "metadata.json"));
  ASSERT_EQ(m["scene"]["meshes"].size(), 1u);
  EXPECT_EQ(m["scene"]["meshes"][0]["path"], mesh);
  EXPECT_EQ(m["scene"]["meshes"][0]["sha256"], sha256_hex(read_all(mesh)));
  const Result check = impactsim("check " + (dir / "toss.yaml").string());
  EXPECT_NE(check.out.find("mesh file    " + mesh + " (sha256 " + sha256_hex(read_all(mesh)).substr(0, 12) + ")"),
            std::string::npos) << check.out;
  write_file(mesh, read_all(mesh) + "# edited\n");
  const Result resumed = impactsim(batch + " --resume");
  EXPECT_NE(resumed.code, 0);
  EXPECT_NE(resumed.err.find("scene text"), std::string::npos) << resumed.err;
}

TEST(Metadata, OverridesAreAppliedAndRecorded) {
  const fs::path dir = fresh_path("set");
  const Result r = impactsim("run " + scene("rocking_block.yaml") + " --set simulation.t_end=0.25 --set materials.mu=0.5 -o " +
                             dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const Json m = read_metadata(dir);
  EXPECT_EQ(m["scene"]["overrides"], Json::array({"simulation.t_end=0.25", "materials.mu=0.5"}));
  EXPECT_EQ(m["settings"]["t_end"], 0.25);
  const Scene s = load_scene(scene("rocking_block.yaml"), {parse_override("simulation.t_end=0.25"), parse_override("materials.mu=0.5")});
  EXPECT_EQ(m["scene"]["sha256"], s.text_sha256);
  const std::vector<std::string> rows = split_lines(read_all(dir / "trajectory.csv"));
  EXPECT_EQ(rows.back().substr(0, rows.back().find(',')), "0.25");
  const Result bad = impactsim("run " + scene("rocking_block.yaml") + " --set materials.mu=abc -o " + dir.string());
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--set materials.mu=abc: materials.mu: expected a number, found 'abc'"), std::string::npos) << bad.err;
}

TEST(Metadata, TheActiveLawsParametersAreRecorded) {
  const fs::path dir = fresh_path("impact");
  const Result r = impactsim("impact " + scene("rocking_block.yaml") + " --samples 10 -o " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const Json m = read_metadata(dir);
  EXPECT_EQ(m["command"], "impact");
  EXPECT_EQ(m["settings"]["law"], "routh");
  EXPECT_EQ(m["settings"]["law_settings"]["h"], 0.3);  // the scene's routh: {h: 0.3, steps: 10}
  EXPECT_EQ(m["settings"]["law_settings"]["steps"], 10);
  // Contacts by name, as simulation.sequential.start names them.
  const fs::path seq = fresh_path("sequential");
  ASSERT_EQ(impactsim("impact " + scene("rocking_block.yaml") + " --law sequential --samples 4 -o " + seq.string()).code, 0);
  EXPECT_EQ(read_metadata(seq)["settings"]["law_settings"]["start"], "A");
  EXPECT_EQ(read_metadata(seq)["settings"]["law_settings"]["order"], "cyclic");
}

TEST(Metadata, AFailedRunLeavesItMarkedFailed) {
  const fs::path dir = fresh_path("failed");
  std::string text = read_all(scene("cube_toss.yaml"));
  const std::string cap = "max_steps: 20000";
  ASSERT_NE(text.find(cap), std::string::npos);
  text.replace(text.find(cap), cap.size(), "max_steps: 50");
  fs::create_directories(dir);
  std::ofstream(dir / "capped.yaml") << text;
  const Result r = impactsim("run " + (dir / "capped.yaml").string() + " -o " + (dir / "out").string());
  ASSERT_EQ(r.code, 3) << r.err;
  const Json m = read_metadata(dir / "out");
  EXPECT_EQ(m["status"], "failed");
  EXPECT_EQ(m["settings"]["max_steps"], 50);
}

TEST(Metadata, BatchAndConvergeWriteItToo) {
  const fs::path batch = fresh_path("batch"), converge = fresh_path("converge");
  ASSERT_EQ(impactsim("batch " + scene("rocking_block.yaml") + " --runs 3 --seed 7 -o " + batch.string()).code, 0);
  const Json b = read_metadata(batch);
  EXPECT_EQ(b["command"], "batch");
  EXPECT_EQ(b["settings"]["seed"], 7);
  EXPECT_EQ(b["status"], "ok");
  ASSERT_EQ(impactsim("converge " + scene("bouncing_ball.yaml") + " --steps 0.01,0.005 -o " + converge.string()).code, 0);
  const Json c = read_metadata(converge);
  EXPECT_EQ(c["command"], "converge");
  EXPECT_EQ(c["settings"]["integrator"], "time-stepping");
  EXPECT_EQ(c["settings"]["time_stepping"]["h"], 0.01);
  EXPECT_EQ(c["settings"]["energy_check"], true);  // fixed-step integrators only
}

// provenance_json is metadata.json less what differs between runs of the same batch (command line,
// time, host, status); the merge's metadata.json carries it with the merge's own command and slices.
TEST(Metadata, ProvenanceIsTheReproduciblePartOfMetadata) {
  const Scene scene = load_scene(testing::scene("rocking_block.yaml"));
  const Metadata m{"batch", "impactsim batch x --first 5", "routh", 7};
  const Json full = Json::parse(metadata_json(m, scene, "ok", 1.5));
  const Json provenance = Json::parse(provenance_json(m, scene));
  EXPECT_EQ(provenance.size(), 4u);
  for (const char* key : {"impactsim", "command", "scene", "settings"}) EXPECT_EQ(provenance[key], full[key]) << key;
  const Json merged = Json::parse(merge_metadata_json("impactsim merge a b -o c", {"a", "b"}, provenance_json(m, scene),
                                                      std::chrono::system_clock::now(), 0.25));
  EXPECT_EQ(merged["command"], "merge");
  EXPECT_EQ(merged["slices"], Json({"a", "b"}));
  EXPECT_EQ(merged["settings"], full["settings"]);
  EXPECT_EQ(merged["batch_impactsim"], full["impactsim"]);
  EXPECT_EQ(merged["wall_seconds"], 0.25);
  // Slices from before metadata.json: the merge still records itself.
  const Json bare = Json::parse(merge_metadata_json("m", {"a"}, "", std::chrono::system_clock::now(), 0));
  EXPECT_FALSE(bare.contains("settings"));
  EXPECT_EQ(bare["status"], "ok");
}

TEST(Metadata, VersionPrintsTheVersionAndCommit) {
  const Result r = impactsim("--version");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, std::string("impactsim ") + impactsim_version() + " (commit " + impactsim_commit() + ")\n");
  EXPECT_NE(std::string(impactsim_commit()), "");
}

}  // namespace
}  // namespace impactsim
