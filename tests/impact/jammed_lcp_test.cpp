// The robust LCP path on jammed frictional impact LCPs (singular Delassus matrices, n up to 120):
// every one of 1,000 generated problems is solved with a verified residual, the impact it stands
// for is physical, and the proximal-point fallback is what solves the ones Lemke alone cannot.
#include <gtest/gtest.h>

#include <fstream>

#include "impact/lcp.hpp"
#include "tests/impact/jammed_lcps.hpp"

namespace impactsim {
namespace {

TEST(JammedLcp, EveryGeneratedProblemIsSolvedAndPhysical) {
  Rng rng(1);
  int proximal = 0, largest = 0;
  for (int index = 0; index < 1000; ++index) {
    const testing::JammedLcp p = testing::jammed_lcp(index);
    largest = std::max(largest, static_cast<int>(p.lcp.w.size()));
    const LcpSolution s = solve_lemke(p.lcp.W, p.lcp.w);
    ASSERT_TRUE(s.ok()) << "problem " << index << " (n = " << p.lcp.w.size() << "): " << describe(s.status);
    ASSERT_LE(lcp_residual(p.lcp.W, p.lcp.w, s.z), 1e-9) << "problem " << index;
    proximal += s.method == LcpSolution::Method::proximal;
    // The outcome: inelastic, so no contact still approaches and kinetic energy does not rise.
    const ContactSpace& c = p.space;
    const Eigen::VectorXd v_plus = p.v_minus + p.Minv_JbarT * s.z.head(p.Minv_JbarT.cols());
    const double scale = 1.0 + p.v_minus.cwiseAbs().maxCoeff();
    EXPECT_GE((c.J_n * v_plus).minCoeff(), -1e-8 * scale) << "problem " << index;
    EXPECT_LE(v_plus.dot(c.M * v_plus), p.v_minus.dot(c.M * p.v_minus) * (1 + 1e-9)) << "problem " << index;
    // The law itself, which leaves out the frictionless contacts' blocks: solved and physical too.
    const ImpactResult law = AnitescuPotraLaw().resolve(c, p.v_minus, rng);
    ASSERT_TRUE(law.ok) << "problem " << index << ": " << law.diagnostic;
    EXPECT_GE((c.J_n * law.v_plus).minCoeff(), -1e-8 * scale) << "problem " << index;
    EXPECT_LE(law.kinetic_energy_plus, law.kinetic_energy_minus * (1 + 1e-9)) << "problem " << index;
  }
  EXPECT_EQ(largest, 120);
  EXPECT_GE(proximal, 1) << "the set no longer exercises the proximal fallback";
}

// Lemke alone (pivot tolerance retries and enumeration, no proximal fallback) fails some of the set:
// the set is as hard as it claims. Problem 170 is one (n = 120, ray termination).
TEST(JammedLcp, SetContainsProblemsLemkeAloneFails) {
  const testing::JammedLcp p = testing::jammed_lcp(170);
  ASSERT_EQ(p.lcp.w.size(), 120);
  const LcpSolution s = solve_lemke(p.lcp.W, p.lcp.w);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s.method, LcpSolution::Method::proximal);
}

// The Routh step LCP of the dominoes row (n = 80) that ended a run with a ray termination before the
// proximal fallback; recorded from scenes/dominoes.yaml under --law routh.
TEST(JammedLcp, DominoRowRouthStepIsSolved) {
  std::ifstream in(std::string(IMPACTSIM_SOURCE_DIR) + "/tests/impact/data/domino_routh_step_lcp.txt");
  ASSERT_TRUE(in.good());
  int n = 0;
  in >> n;
  Eigen::MatrixXd W(n, n);
  Eigen::VectorXd w(n);
  for (int i = 0; i < n * n; ++i) in >> W(i / n, i % n);
  for (int i = 0; i < n; ++i) in >> w[i];
  ASSERT_TRUE(in.good());
  const LcpSolution s = solve_lemke(W, w);
  ASSERT_TRUE(s.ok()) << describe(s.status);
  EXPECT_LE(lcp_residual(W, w, s.z), 1e-9);
  EXPECT_GT(s.z.norm(), 0.0);
  EXPECT_EQ(s.method, LcpSolution::Method::proximal);
}

}  // namespace
}  // namespace impactsim
