// impactsim impact end to end: samples.csv of a law, every Anitescu-Potra solution, every ordering.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "app/commands.hpp"
#include "tests/app/cli.hpp"
#include "tests/app/hdf5_read.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

// impactsim impact: the rocking block's first impact (reached by simulating the 1 cm drop), sampled
// with the Routh law, byte-identical for one and two threads.
TEST(Impact, ImpactSamplesAreTheSameForAnyThreadCount) {
  const fs::path a = fresh_dir("impact1"), b = fresh_dir("impact2");
  const std::string common = "impact " + scene("rocking_block.yaml") + " --law routh --samples 3000 --seed 9 -o ";
  const Result r1 = impactsim(common + a.string() + " --threads 1");
  const Result r2 = impactsim(common + b.string() + " --threads 2");
  ASSERT_EQ(r1.code, 0) << r1.err;
  ASSERT_EQ(r2.code, 0) << r2.err;
  const std::string csv = read_all(a / "samples.csv");
  EXPECT_EQ(csv, read_all(b / "samples.csv"));
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3001);
  std::istringstream lines(csv);
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "sample,block.vx,block.vy,block.omega,A.vn,A.vt,B.vn,B.vt,kinetic_energy,lcp_solves,terminated,A.class,B.class");
  // The summary names the three classes of Halm and Posa's Fig. 9 and nothing else.
  EXPECT_NE(r1.out.find("A:lift B:stick"), std::string::npos) << r1.out;
  EXPECT_NE(r1.out.find("A:stick B:lift"), std::string::npos) << r1.out;
  EXPECT_NE(r1.out.find("A:rest B:rest"), std::string::npos) << r1.out;
  EXPECT_NE(r1.out.find("seed 9"), std::string::npos);
  EXPECT_NE(r1.out.find("samples per second"), std::string::npos);
  // Progress as batch shows it: into a file, a line at the end.
  EXPECT_NE(r1.err.find("impact: 3000/3000 samples"), std::string::npos) << r1.err;
  // summary.json counts what samples.csv holds: the classes of each contact over the samples.
  const std::string summary = read_all(a / "summary.json");
  EXPECT_EQ(summary, read_all(b / "summary.json"));
  long stick_a = 0, lift_a = 0, rest_a = 0;
  std::string line;
  while (std::getline(lines, line)) {
    const std::string a_class = split(line)[11];
    stick_a += a_class == "stick";
    lift_a += a_class == "lift";
    rest_a += a_class == "rest";
  }
  EXPECT_EQ(stick_a + lift_a + rest_a, 3000);
  for (const std::string& expected : std::vector<std::string>{"\"samples\": 3000", "\"accepted\": 3000", "\"stick\": " + std::to_string(stick_a),
                                     "\"lift\": " + std::to_string(lift_a), "\"rest\": " + std::to_string(rest_a)})
    EXPECT_NE(summary.find(expected), std::string::npos) << expected << "\n" << summary;
  const Result quiet = impactsim(common + fresh_dir("impact3").string() + " -q");
  EXPECT_EQ(quiet.err, "");
}

// The rocking block with Routh steps too few to end its impact (h = 0.2 N s, 3 steps; 0.3 and 10
// in the shipped scene: about 40 % of the samples are cut off): samples still approaching at the cap are labelled `collide` and left out of
// the class table, whose percentages are of the accepted samples, as the authors discard them.
TEST(Impact, SamplesAtTheStepCapAreLabelledCollideAndLeftOutOfTheClasses) {
  const fs::path dir = fresh_dir("collide");
  std::string text = read_all(scene("rocking_block.yaml"));
  const std::string shipped = "routh: {h: 0.3, steps: 10}";
  ASSERT_NE(text.find(shipped), std::string::npos);
  text.replace(text.find(shipped), shipped.size(), "routh: {h: 0.2, steps: 3}");
  std::ofstream(dir / "rb.yaml") << text;
  const Result r = impactsim("impact " + (dir / "rb.yaml").string() + " --samples 400 --seed 5 -o " + (dir / "out").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::vector<std::string> lines = split_lines(read_all(dir / "out" / "samples.csv"));
  ASSERT_EQ(lines.size(), 401u);
  const std::vector<std::string> header = split(lines[0]);
  const auto column = [&](const std::string& name) {
    return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  long collide = 0;
  for (size_t k = 1; k < lines.size(); ++k) {
    const std::vector<std::string> cells = split(lines[k]);
    const bool capped = cells[column("terminated")] == "0";
    collide += capped;
    for (const char* c : {"A.class", "B.class"}) {
      const std::string& label = cells[column(c)];
      if (capped) {
        EXPECT_EQ(label, "collide") << lines[k];
      } else {
        EXPECT_TRUE(label == "lift" || label == "stick" || label == "rest") << lines[k];
      }
    }
    // A capped sample still approaches: some contact's J_n v+ is below zero.
    if (capped) {
      EXPECT_LT(std::min(std::stod(cells[column("A.vn")]), std::stod(cells[column("B.vn")])), -1e-8);
    }
  }
  ASSERT_GT(collide, 0);
  ASSERT_LT(collide, 400);
  const std::string counted = "(" + std::to_string(400 - collide) + " accepted; " + std::to_string(collide) + " collide";
  EXPECT_NE(r.out.find(counted), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(":collide"), std::string::npos) << r.out;  // not a class combination
  EXPECT_NE(r.err.find("have no outcome"), std::string::npos) << r.err;
  // The class table's percentages sum to 100 over the accepted samples.
  double percent = 0;
  for (const std::string& line : split_lines(r.out))
    if (line.rfind("  A:", 0) == 0 && line.ends_with("%)")) percent += std::stod(line.substr(line.rfind('(') + 1));
  EXPECT_NEAR(percent, 100.0, 1e-3) << r.out;  // each printed to 6 digits
}

TEST(Impact, ImpactListsAnitescuPotraSolutionsAndSequentialOrderings) {
  const fs::path a = fresh_dir("solutions"), b = fresh_dir("orderings");
  const Result solutions = impactsim("impact " + scene("rocking_block.yaml") + " --all-solutions -o " + a.string());
  ASSERT_EQ(solutions.code, 0) << solutions.err;
  const std::string s = read_all(a / "samples.csv");
  EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), 2);  // header and the single solution: rest
  EXPECT_NE(s.find(",rest,rest"), std::string::npos) << s;
  const Result orderings = impactsim("impact " + scene("rocking_block.yaml") + " --orderings all -o " + b.string());
  ASSERT_EQ(orderings.code, 0) << orderings.err;
  EXPECT_NE(orderings.out.find("ordering 0: A,B"), std::string::npos) << orderings.out;
  EXPECT_NE(orderings.out.find("ordering 1: B,A"), std::string::npos) << orderings.out;
  const std::string o = read_all(b / "samples.csv");
  EXPECT_EQ(std::count(o.begin(), o.end(), '\n'), 3);
}

TEST(Impact, ImpactWithoutAnImpactIsAClearError) {
  const Result r = impactsim("impact " + scene("double_pendulum.yaml") + " -o " + fresh_dir("noimpact").string());
  EXPECT_EQ(r.code, kExitScene);
  EXPECT_NE(r.err.find("no impact happens before t_end"), std::string::npos) << r.err;
}

// A box landing flat in 3-D: four corners at once, an Anitescu-Potra LCP of 40 variables.
std::string flat_box(const fs::path& dir, const std::string& solution) {
  const fs::path path = dir / "flat_box.yaml";
  std::ofstream(path) << "name: flat_box\n"
                         "world:\n"
                         "  gravity: [0, 0, -9.81]\n"
                         "  shapes: [{name: ground, type: halfspace, normal: [0, 0, 1]}]\n"
                         "bodies:\n"
                         "  - {name: box, joint: {type: free}, density: 100, initial: {z: 0.6},\n"
                         "     shapes: [{name: box_shape, type: box, size: [1, 1, 1]}]}\n"
                         "materials: {mu: 0.5, e: 0.0}\n"
                         "contacts: [{name: c, shape: box_shape, with: ground}]\n"
                         "simulation: {t_end: 1, law: routh, routh: {solution: "
                      << solution << "}}\n";
  return path.string();
}

// Enumerating 2^40 bases is refused with a message; it once aborted (uncaught std::invalid_argument).
TEST(Impact, AllSolutionsOfAnLcpTooLargeToEnumerateIsAClearError) {
  const fs::path dir = fresh_dir("flat_box");
  const Result r = impactsim("impact " + flat_box(dir, "lemke") + " --all-solutions -o " + (dir / "out").string());
  EXPECT_EQ(r.code, kExitUsage) << r.err;
  EXPECT_NE(r.err.find("limited to n = 20 variables; this one has 40"), std::string::npos) << r.err;
  // Routh with solution: random enumerates every step LCP: the run stops with the reason.
  const Result routh = impactsim("run " + flat_box(dir, "random") + " -o " + (dir / "run").string());
  EXPECT_EQ(routh.code, kExitSimulation) << routh.err;
  EXPECT_NE(routh.err.find("solution: random enumerates its 2^n bases, at most 20 variables (use solution: lemke)"),
            std::string::npos)
      << routh.err;
  // Sampling it labels every sample `failed` with the reason, keeps samples.csv and exits non-zero.
  const Result sampled = impactsim("impact " + flat_box(dir, "random") + " --samples 8 -o " + (dir / "failed").string());
  EXPECT_EQ(sampled.code, kExitSimulation) << sampled.err;
  EXPECT_NE(sampled.out.find("8 failed"), std::string::npos) << sampled.out;
  EXPECT_NE(sampled.out.find("at most 20 variables (use solution: lemke)"), std::string::npos) << sampled.out;
  EXPECT_NE(sampled.err.find("none of the 8 samples has an outcome"), std::string::npos) << sampled.err;
  const std::vector<std::string> rows = split_lines(read_all(dir / "failed" / "samples.csv"));
  ASSERT_EQ(rows.size(), 9u);
  EXPECT_TRUE(rows[1].ends_with(",failed,failed,failed,failed")) << rows[1];
  // Sampling the same impact with Lemke's step solution works.
  EXPECT_EQ(impactsim("impact " + flat_box(dir, "lemke") + " --samples 8 -q -o " + (dir / "sampled").string()).code, 0);
}

// The row of 100 balls (201 contacts): a combination of classes is summarized as how many contacts
// are in each class (a line naming 201 classes would not read), and every count matches samples.csv.
// The combination key once was a base-4 number of 201 digits, which overflowed.
TEST(Impact, CombinationsOfManyContactsAreCountedPerClass) {
  const fs::path dir = fresh_dir("row");
  const Result r = impactsim("impact " + scene("sphere_row.yaml") + " --samples 40 --seed 3 -o " +
                             dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("how many contacts in each class"), std::string::npos) << r.out;
  const std::vector<std::string> lines = split_lines(read_all(dir / "samples.csv"));
  ASSERT_EQ(lines.size(), 41u);
  const std::vector<std::string> header = split(lines[0]);
  std::map<std::string, long> expected;
  for (size_t k = 1; k < lines.size(); ++k) {
    const std::vector<std::string> cells = split(lines[k]);
    std::map<std::string, int> count;
    int contacts = 0;
    for (size_t j = 0; j < header.size(); ++j)
      if (header[j].size() > 6 && header[j].substr(header[j].size() - 6) == ".class") {
        ++count[cells[j]];
        ++contacts;
      }
    ASSERT_EQ(contacts, 201);
    std::string label;
    for (const char* name : {"rest", "stick", "slide", "lift"}) {  // OutcomeClass order
      if (!count.count(name)) continue;
      if (!label.empty()) label += ' ';
      label.append(name).append(":").append(std::to_string(count[name]));
    }
    ++expected[label];
  }
  ASSERT_FALSE(expected.empty());
  for (const auto& [label, n] : expected)
    EXPECT_NE(r.out.find("  " + label + "  " + std::to_string(n) + " ("), std::string::npos) << label << "\n" << r.out;
}

// --format hdf5: samples.h5 instead of samples.csv, the same columns in the same order, each value
// the CSV's to its printed 12 digits (the file holds every bit), the same labels and summary.json,
// no larger than the CSV's twice; --plot, which draws from samples.csv, is refused with it.
TEST(Impact, Hdf5SamplesHoldWhatTheCsvPrints) {
  const fs::path a = fresh_dir("impact_csv"), b = fresh_dir("impact_h5");
  const std::string common = "impact " + scene("rocking_block.yaml") + " --samples 700 --seed 4 --threads 2 -q -o ";
  const Result csv = impactsim(common + a.string());
  const Result h5 = impactsim(common + b.string() + " --format hdf5");
  ASSERT_EQ(csv.code, 0) << csv.err;
  ASSERT_EQ(h5.code, 0) << h5.err;
  EXPECT_FALSE(fs::exists(b / "samples.csv"));
  // Chunks of the samples' number: in chunks of 65,536 rows the file took megabytes.
  EXPECT_LT(fs::file_size(b / "samples.h5"), 2 * fs::file_size(a / "samples.csv"));
  const Hdf5File file((b / "samples.h5").string());
  ASSERT_TRUE(file.ok());
  std::istringstream lines(read_all(a / "samples.csv"));
  std::string header, line;
  std::getline(lines, header);
  const std::vector<std::string> columns = split(header);
  ASSERT_EQ(file.columns(), columns);
  std::vector<std::vector<std::string>> rows;
  while (std::getline(lines, line)) rows.push_back(split(line));
  ASSERT_EQ(rows.size(), 700u);
  for (size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].ends_with(".class")) {
      const std::vector<std::string> labels = file.labels(columns[c]);
      ASSERT_EQ(labels.size(), rows.size()) << columns[c];
      for (size_t k = 0; k < rows.size(); ++k) EXPECT_EQ(labels[k], rows[k][c]) << columns[c] << " row " << k;
      continue;
    }
    const std::vector<double> values = file.numbers(columns[c]);
    ASSERT_EQ(values.size(), rows.size()) << columns[c];
    for (size_t k = 0; k < rows.size(); ++k)
      EXPECT_NEAR(values[k], std::stod(rows[k][c]), 1e-11 * (1 + std::abs(values[k]))) << columns[c] << " row " << k;
  }
  EXPECT_EQ(read_all(b / "summary.json"), read_all(a / "summary.json"));
  const Result plot = impactsim(common + fresh_dir("impact_h5_plot").string() + " --format hdf5 --plot");
  EXPECT_EQ(plot.code, 1);
  EXPECT_NE(plot.err.find("--plot draws from samples.csv"), std::string::npos) << plot.err;
  const Result unknown = impactsim(common + fresh_dir("impact_h5_bad").string() + " --format parquet");
  EXPECT_NE(unknown.code, 0);
}

}  // namespace
}  // namespace impactsim
