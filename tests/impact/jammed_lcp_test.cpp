// The robust LCP path on jammed frictional impact LCPs (singular Delassus matrices, n up to 120):
// every one of 1,000 generated problems is solved with a verified residual, the impact it stands
// for is physical, and the proximal-point fallback is what solves the ones Lemke alone cannot.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "numerics/lcp.hpp"
#include "tests/numerics/lcp_file.hpp"
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
  LcpOptions first_only;  // without the fallbacks Lemke's failure stands, after its own pivots alone
  first_only.retry = false;
  const LcpSolution lemke = solve_lemke(p.lcp.W, p.lcp.w, first_only);
  EXPECT_FALSE(lemke.ok());
  EXPECT_EQ(lemke.method, LcpSolution::Method::lemke);
  EXPECT_LT(lemke.pivots, s.pivots);
  // retry_up_to: the fallbacks for problems of at most that many variables, Lemke's failure above.
  LcpOptions up_to = bounded(LcpOptions{});
  EXPECT_EQ(up_to.retry_up_to, 200);
  EXPECT_EQ(solve_lemke(p.lcp.W, p.lcp.w, up_to).method, LcpSolution::Method::proximal);
  up_to.retry_up_to = 119;
  const LcpSolution above = solve_lemke(p.lcp.W, p.lcp.w, up_to);
  EXPECT_FALSE(above.ok());
  EXPECT_EQ(above.method, LcpSolution::Method::lemke);
}

// The Routh step LCP of the dominoes row (n = 80) that ended a run with a ray termination before the
// proximal fallback; recorded from scenes/dominoes.yaml under --law routh.
TEST(JammedLcp, DominoRowRouthStepIsSolved) {
  Eigen::MatrixXd W;
  Eigen::VectorXd w;
  ASSERT_TRUE(testing::read_lcp_file("domino_routh_step_lcp.txt", W, w));
  const LcpSolution s = solve_lemke(W, w);
  ASSERT_TRUE(s.ok()) << describe(s.status);
  EXPECT_LE(lcp_residual(W, w, s.z), 1e-9);
  EXPECT_GT(s.z.norm(), 0.0);
  EXPECT_EQ(s.method, LcpSolution::Method::proximal);
}

// LemkePaths on the jammed set: the same W with several right-hand sides (the problem's, scaled,
// perturbed) gives solve_lemke's answers to the bit, through its fallbacks too, and keeps within
// its byte budget (at n = 120 only 18 tableaux fit: the rest of a path is pivoted off the tree).
TEST(JammedLcp, LemkePathsMatchSolveLemkeBitForBit) {
  std::mt19937 rng(5);
  std::normal_distribution<double> g;
  int off_budget = 0;
  for (int index : {0, 1, 2, 3, 4, 5, 6, 7, 31, 64, 99, 170}) {
    const testing::JammedLcp p = testing::jammed_lcp(index);
    const Eigen::MatrixXd& W = p.lcp.W;
    const long n = W.rows();
    LemkePaths paths(W);
    for (int k = 0; k < 4; ++k) {
      Eigen::VectorXd w = p.lcp.w * (1.0 + 0.25 * k);
      if (k >= 2)
        for (int i = 0; i < w.size(); ++i) w[i] += 1e-3 * g(rng) * (1.0 + std::abs(w[i]));
      const LcpSolution expected = solve_lemke(W, w);
      const LcpSolution got = paths.solve(w);
      const std::string what = "problem " + std::to_string(index) + ", right-hand side " + std::to_string(k);
      EXPECT_EQ(got.status, expected.status) << what;
      EXPECT_EQ(got.method, expected.method) << what;
      EXPECT_EQ(got.pivots, expected.pivots) << what;
      ASSERT_EQ(got.z.size(), expected.z.size()) << what;
      EXPECT_EQ(std::memcmp(got.z.data(), expected.z.data(), sizeof(double) * n), 0) << what;
      EXPECT_EQ(std::memcmp(&got.residual, &expected.residual, sizeof(double)), 0) << what;
    }
    EXPECT_LE(paths.tableaux() * n * (2 * n + 1), kLemkePathDoubles) << "problem " << index;
    off_budget += (paths.tableaux() + 1) * n * (2 * n + 1) > kLemkePathDoubles;
  }
  EXPECT_GE(off_budget, 1) << "no problem filled the budget: the off-tree path went untested";
}

}  // namespace
}  // namespace impactsim
