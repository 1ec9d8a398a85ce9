// impactsim impact end to end: samples.csv of a law, every Anitescu-Potra solution, every ordering.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "app/commands.hpp"
#include "tests/app/cli.hpp"

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
  // Sampling the same impact works.
  EXPECT_EQ(impactsim("impact " + flat_box(dir, "lemke") + " --samples 8 -q -o " + (dir / "sampled").string()).code, 0);
}

}  // namespace
}  // namespace impactsim
