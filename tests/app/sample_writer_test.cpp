// The samples file and summary of `impact`: a row per sample in samples.csv's columns, class counts
// over accepted samples only, and combinations named per contact up to twelve contacts, counted by
// class beyond.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/sample_writer.hpp"
#include "core/first_impact.hpp"
#include "impact/anitescu_potra.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

struct RockingBlockImpact {
  Scene scene = load_scene(std::string(IMPACTSIM_SOURCE_DIR) + "/scenes/rocking_block.yaml");
  ImpactState impact;
  RockingBlockImpact() { EXPECT_TRUE(find_first_impact(scene.system, scene.initial, impact)); }
};

TEST(SampleWriter, ColumnsAreTheSampleVelocityContactsEnergiesAndClasses) {
  const RockingBlockImpact r;
  const Table t = sample_columns(r.scene, r.impact.space);
  ASSERT_EQ(t.contact_names.size(), 2u);
  const std::vector<std::string> expected{"sample", "block.vx", "block.vy", "block.omega", "A.vn", "A.vt", "B.vn",
                                          "B.vt", "kinetic_energy", "lcp_solves", "terminated", "A.class", "B.class"};
  EXPECT_EQ(t.columns, expected);
}

TEST(SampleWriter, RowsAndTheSummaryCountAcceptedSamplesOnly) {
  const RockingBlockImpact r;
  const fs::path dir = fresh_path("sample_writer");
  fs::create_directories(dir);
  SampleWriter writer((dir / "samples.csv").string(), r.scene, r.impact.space, 1e-6);
  Rng rng(0);
  const ImpactResult rest = AnitescuPotraLaw().resolve(r.impact.space, r.impact.v_minus, rng);
  ImpactResult failed = rest;
  failed.ok = false;
  failed.diagnostic = "an LCP failed";
  writer.write(0, rest);
  writer.write(1, failed);
  writer.flush();
  EXPECT_EQ(writer.rows(), 2);
  EXPECT_EQ(writer.unclassified(), 1);
  const std::string csv = read_all(dir / "samples.csv");
  EXPECT_NE(csv.find(",rest,rest\n"), std::string::npos) << csv;  // the block comes to rest
  EXPECT_NE(csv.find(",failed,failed\n"), std::string::npos) << csv;
  const nlohmann::json summary = nlohmann::json::parse(writer.json_text());
  EXPECT_EQ(summary["samples"], 2);
  EXPECT_EQ(summary["accepted"], 1);
  EXPECT_EQ(summary["failed"], 1);
  EXPECT_EQ(summary["contacts"]["A"]["classes"]["rest"], 1);
  EXPECT_EQ(summary["combinations"][0]["classes"], "A:rest B:rest");
  std::ostringstream printed;
  writer.print(printed, 1.0, false);
  EXPECT_NE(printed.str().find("failed       first: an LCP failed"), std::string::npos) << printed.str();
}

TEST(SampleWriter, CombinationsBeyondTwelveContactsAreCountedByClass) {
  const RockingBlockImpact r;
  const fs::path dir = fresh_path("sample_writer_labels");
  fs::create_directories(dir);
  const SampleWriter writer((dir / "samples.csv").string(), r.scene, r.impact.space, 1e-6);
  EXPECT_EQ(writer.joint_label("03", 2), "A:rest B:lift");
  // Beyond kNamedContacts contacts a label counts the contacts in each class.
  EXPECT_EQ(writer.joint_label(std::string(10, '3') + std::string(5, '1'), 15), "stick:5 lift:10");
}

}  // namespace
}  // namespace impactsim
