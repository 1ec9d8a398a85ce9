// Lemke and the enumerator on problems with known answers, random copositive problems,
// degenerate ones and unsolvable ones; LemkePaths against solve_lemke bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>

#include <Eigen/Cholesky>

#include "numerics/lcp.hpp"
#include "tests/numerics/lcp_file.hpp"

namespace impactsim {
namespace {

using testing::read_lcp_file;

// Solves the LCP recorded in tests/numerics/data/<name>, leaving it in W and w.
LcpSolution solve_file(const std::string& name, Eigen::MatrixXd& W, Eigen::VectorXd& w) {
  EXPECT_TRUE(read_lcp_file(name, W, w)) << name;
  return solve_lemke(W, w);
}

bool contains(const std::vector<Eigen::VectorXd>& set, const Eigen::VectorXd& z, double tol) {
  for (const auto& s : set)
    if ((s - z).cwiseAbs().maxCoeff() <= tol) return true;
  return false;
}

Eigen::MatrixXd random_matrix(int n, std::mt19937& rng) {
  std::normal_distribution<double> g;
  Eigen::MatrixXd A(n, n);
  for (int i = 0; i < n * n; ++i) A.data()[i] = g(rng);
  return A;
}

TEST(Lcp, NonNegativeRightHandSideNeedsNoPivot) {
  const Eigen::MatrixXd W = Eigen::MatrixXd::Identity(3, 3);
  const LcpSolution s = solve_lemke(W, Eigen::Vector3d(0, 1, 2));
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.pivots, 0);
  EXPECT_EQ(s.z, Eigen::Vector3d::Zero());
}

TEST(Lcp, TwoByTwoWithThreeSolutions) {
  Eigen::Matrix2d W;
  W << 1, 2, 2, 1;
  const Eigen::Vector2d w(-1, -1);
  const auto all = enumerate_lcp_solutions(W, w);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_TRUE(contains(all, Eigen::Vector2d(1, 0), 1e-12));
  EXPECT_TRUE(contains(all, Eigen::Vector2d(0, 1), 1e-12));
  EXPECT_TRUE(contains(all, Eigen::Vector2d(1.0 / 3, 1.0 / 3), 1e-12));
  const LcpSolution s = solve_lemke(W, w);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(contains(all, s.z, 1e-12));
}

TEST(Lcp, PositiveDefiniteProblemsHaveOneSolutionAndLemkeFindsIt) {
  std::mt19937 rng(1);
  std::normal_distribution<double> g;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + trial % 10;
    const Eigen::MatrixXd A = random_matrix(n, rng);
    const Eigen::MatrixXd W = A * A.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n);
    Eigen::VectorXd w(n);
    for (int i = 0; i < n; ++i) w[i] = g(rng);
    const LcpSolution s = solve_lemke(W, w);
    ASSERT_TRUE(s.ok()) << describe(s.status);
    EXPECT_LT(s.residual, 1e-12);
    const auto all = enumerate_lcp_solutions(W, w);
    ASSERT_EQ(all.size(), 1u);
    EXPECT_LT((all[0] - s.z).cwiseAbs().maxCoeff(), 1e-9);
  }
}

// Strictly copositive (all entries positive) problems always have a solution; Lemke's must be
// among the enumerated ones.
TEST(Lcp, RandomStrictlyCopositiveProblems) {
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> u(0.01, 1.0), g(-1, 1);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + trial % 8;
    Eigen::MatrixXd W(n, n);
    Eigen::VectorXd w(n);
    for (int i = 0; i < n * n; ++i) W.data()[i] = u(rng);
    for (int i = 0; i < n; ++i) w[i] = g(rng);
    const LcpSolution s = solve_lemke(W, w);
    ASSERT_TRUE(s.ok()) << describe(s.status) << " trial " << trial;
    EXPECT_LT(s.residual, 1e-10);
    EXPECT_TRUE(contains(enumerate_lcp_solutions(W, w), s.z, 1e-8)) << "trial " << trial;
  }
}

TEST(Lcp, TiesAreBrokenWithoutCycling) {
  // Symmetric data make every ratio test tie.
  Eigen::MatrixXd W = Eigen::MatrixXd::Constant(4, 4, 1.0);
  const Eigen::VectorXd w = Eigen::VectorXd::Constant(4, -1.0);
  const LcpSolution s = solve_lemke(W, w);
  ASSERT_TRUE(s.ok());
  EXPECT_NEAR(s.z.sum(), 1.0, 1e-12);
  EXPECT_LT(s.pivots, 10);
}

// A time step of a row of resting balls struck at one end (unit masses, planar: x and z per ball).
// Ground rows read z (W = 1 each, and w = -g h alike), neighbour rows x_k - x_{k-1} (a chain) with
// w = 0 but for the struck pair: the ratio tests tie at every pivot and the lexicographic rule
// decides, over a tableau whose w columns are mostly still basic (what a row of 100 balls under
// time-stepping solves 1,000 times). W is positive definite, so the solution is unique: Lemke must
// reach it without cycling, and it must agree with the solve on its support.
TEST(Lcp, DegenerateRowIsSolvedThroughLexicographicTies) {
  for (int balls : {10, 50, 101}) {
    const int n = 2 * balls - 1;  // balls ground rows, then balls - 1 neighbour rows
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n, 2 * balls);
    for (int k = 0; k < balls; ++k) J(k, 2 * k + 1) = 1.0;
    for (int k = 1; k < balls; ++k) {
      J(balls + k - 1, 2 * k) = 1.0;
      J(balls + k - 1, 2 * (k - 1)) = -1.0;
    }
    const Eigen::MatrixXd W = J * J.transpose();
    Eigen::VectorXd w = Eigen::VectorXd::Zero(n);
    w.head(balls).setConstant(-9.81e-3);
    w[balls] = -2.0;
    const LcpSolution s = solve_lemke(W, w);
    ASSERT_TRUE(s.ok()) << balls;
    EXPECT_LT(s.residual, 1e-12) << balls;
    EXPECT_LE(s.pivots, 2 * n + 1) << balls;
    std::vector<int> S;
    for (int i = 0; i < n; ++i)
      if (s.z[i] > 0) S.push_back(i);
    ASSERT_FALSE(S.empty());
    Eigen::MatrixXd Wss;
    Eigen::VectorXd rs;
    support_system(W, -w, S, Wss, rs);
    const Eigen::VectorXd zs = Wss.llt().solve(rs);
    for (size_t a = 0; a < S.size(); ++a) EXPECT_NEAR(s.z[S[a]], zs[a], 1e-12 * (1 + zs.cwiseAbs().maxCoeff()));
    EXPECT_GE((W * s.z + w).minCoeff(), -1e-12);
    // Every ground row carries its ball's weight.
    for (int k = 0; k < balls; ++k) EXPECT_NEAR(s.z[k], 9.81e-3, 1e-15) << k;
  }
}

// A resting box's four coplanar corners: J_n M^-1 J_n^T has rank 3, and rounding leaves entries of
// order 1e-13 where zeros belong. Lemke must still find the contact forces (it did not, with only
// its default pivot tolerance, on this state of the cube toss).
TEST(Lcp, RankDeficientContactForceProblemIsSolved) {
  Eigen::MatrixXd W;
  Eigen::VectorXd w;
  const LcpSolution s = solve_file("coplanar_corners_lcp.txt", W, w);
  ASSERT_TRUE(s.ok()) << describe(s.status);
  EXPECT_LT(s.residual, 1e-12);
  // The box rests: the normal accelerations vanish and the normal forces carry its weight.
  EXPECT_LT(s.slack.head(4).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_GT(s.z.head(4).sum(), 0.0);
}

// From the sequential law: a null single-contact impact (the contact does not approach) whose w is
// non-negative but for a -2.4e-14 tangential residue. Lemke's ray there was not the answer.
TEST(Lcp, NullImpactWithRoundingResidueIsSolved) {
  Eigen::Matrix4d W;
  W << 1.6, -1.2, 1.2, 0, -1.2, 3.4, -3.4, 1, 1.2, -3.4, 3.4, 1, 1, -1, -1, 0;
  const Eigen::Vector4d w(3.8896871834559477e-12, 2.4147350785597155e-14, -2.4147350785597155e-14, 0);
  const LcpSolution s = solve_lemke(W, w);
  ASSERT_TRUE(s.ok()) << describe(s.status);
  EXPECT_LT(s.residual, 1e-12);
  EXPECT_LT(s.z.norm(), 1e-12);
}

// The same single-contact friction LCP with a tangential term of 1e-13 (above the rounding snap):
// Lemke alone ends in a ray at every pivot tolerance, though a solution exists; the enumeration
// fallback finds it.
TEST(Lcp, RayOnASolvableSmallProblemFallsBackToEnumeration) {
  Eigen::Matrix4d W;
  W << 1.6, -1.2, 1.2, 0, -1.2, 3.4, -3.4, 1, 1.2, -3.4, 3.4, 1, 1, -1, -1, 0;
  const Eigen::Vector4d w(1e-6, 1e-13, -1e-13, 0);
  const LcpSolution s = solve_lemke(W, w);
  ASSERT_TRUE(s.ok()) << describe(s.status);
  EXPECT_LT(s.residual, 1e-12);
  EXPECT_FALSE(enumerate_lcp_solutions(W, w).empty());
  LcpOptions first_only;  // no fallbacks: Lemke's ray is the answer
  first_only.retry = false;
  EXPECT_EQ(solve_lemke(W, w, first_only).status, LcpSolution::Status::ray_termination);
}

// The default pivot limit is pivots_per_variable n + 100: a positive definite problem of 150
// variables, every one of them loaded, needs a pivot for each; with 0 per variable it stops at 100.
TEST(Lcp, ThePivotLimitGrowsWithTheProblem) {
  const int n = 150;
  std::mt19937 rng(7);
  const Eigen::MatrixXd A = random_matrix(n, rng);
  const Eigen::MatrixXd W = A * A.transpose() / n + Eigen::MatrixXd::Identity(n, n);
  const Eigen::VectorXd w = -Eigen::VectorXd::Ones(n);
  const LcpSolution full = solve_lemke(W, w);
  ASSERT_TRUE(full.ok()) << describe(full.status);
  EXPECT_GE(full.pivots, n);
  LcpOptions starved = first_answer_only();
  EXPECT_FALSE(starved.retry);
  EXPECT_EQ(starved.pivots_per_variable, 2);
  EXPECT_TRUE(solve_lemke(W, w, starved).ok());  // 2 n + 100 is enough for it
  starved.pivots_per_variable = 0;
  const LcpSolution cut = solve_lemke(W, w, starved);
  EXPECT_EQ(cut.status, LcpSolution::Status::pivot_limit);
  EXPECT_EQ(cut.pivots, 100);
}

TEST(Lcp, UnsolvableProblemsEndInARayNotGarbage) {
  // -z - 1 >= 0 with z >= 0 is impossible; so is 0 z - 1 >= 0.
  for (double a : {-1.0, 0.0}) {
    const LcpSolution s = solve_lemke(Eigen::MatrixXd::Constant(1, 1, a), Eigen::VectorXd::Constant(1, -1.0));
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.status, LcpSolution::Status::ray_termination);
    EXPECT_TRUE(enumerate_lcp_solutions(Eigen::MatrixXd::Constant(1, 1, a), Eigen::VectorXd::Constant(1, -1.0)).empty());
  }
  EXPECT_NE(describe(LcpSolution::Status::ray_termination).find("no solution"), std::string::npos);
}

// A step LCP of Drumwright's scheme on the jammed row of dominoes (68 variables, dominoes.yaml at
// t = 0.23 s, h = 0.01 s): its solution carries internal forces of 1.5e4 where |w| = 36, and the
// slack's rounding (7.8e-10, eps |W| |z|) failed the measure that ignored |z|.
TEST(Lcp, JammedStepWithLargeInternalForcesIsSolved) {
  Eigen::MatrixXd W;
  Eigen::VectorXd w;
  const LcpSolution s = solve_file("domino_drumwright_step_lcp.txt", W, w);
  ASSERT_TRUE(s.ok()) << describe(s.status);
  EXPECT_GT(s.z.maxCoeff(), 1e3);
  EXPECT_GE(s.z.minCoeff(), 0.0);
  const double z_scale = 1 + s.z.maxCoeff(), w_scale = 1 + w.cwiseAbs().maxCoeff();
  EXPECT_GT(s.slack.minCoeff(), -1e-9 * w_scale);
  EXPECT_LT(s.z.cwiseProduct(s.slack).cwiseAbs().maxCoeff(), 1e-9 * z_scale * w_scale);
}

// Step LCPs of the Anitescu-Potra time-stepping scheme on the resting row of dominoes (56
// variables, dominoes.yaml under --integrator time-stepping with the paper's active set, t = 0.52 s
// and 0.57 s): Lemke's pivoting ends with a variable left out although its slack is negative
// (w_13 = -2.3e-9 with W_13,13 = 534 in the first), and neither the polish on its support nor the
// proximal sequence mended it; re-solving with the violated variables added to the support does
// (the second needs three rounds).
TEST(Lcp, LemkeOnePivotShortIsCompleted) {
  for (const char* name : {"domino_time_step_lcp.txt", "domino_time_step_lcp_2.txt"}) {
    Eigen::MatrixXd W;
    Eigen::VectorXd w;
    const LcpSolution s = solve_file(name, W, w);
    ASSERT_TRUE(s.ok()) << name << ": " << describe(s.status);
    EXPECT_LT(s.residual, 1e-11) << name;
    EXPECT_DOUBLE_EQ(s.residual, lcp_residual(W, w, s.z)) << name;
    EXPECT_GE(s.z.minCoeff(), 0.0) << name;
  }
  Eigen::MatrixXd W;
  Eigen::VectorXd w;
  const LcpSolution first = solve_file("domino_time_step_lcp.txt", W, w);
  ASSERT_LT(w[13], -1e-9);
  EXPECT_EQ(first.method, LcpSolution::Method::lemke);
  EXPECT_GT(first.z[13], 0.0);
}

// LemkePaths keeps the tableaux of the pivot paths it has met; each answer must be solve_lemke's to
// the bit, whether its path is new, known or (past the byte budget) pivoted off the tree.
void expect_same_bits(const LcpSolution& a, const LcpSolution& b, const std::string& what) {
  EXPECT_EQ(a.status, b.status) << what;
  EXPECT_EQ(a.method, b.method) << what;
  EXPECT_EQ(a.pivots, b.pivots) << what;
  ASSERT_EQ(a.z.size(), b.z.size()) << what;
  EXPECT_EQ(std::memcmp(a.z.data(), b.z.data(), sizeof(double) * a.z.size()), 0) << what;
  ASSERT_EQ(a.slack.size(), b.slack.size()) << what;
  EXPECT_EQ(std::memcmp(a.slack.data(), b.slack.data(), sizeof(double) * a.slack.size()), 0) << what;
  EXPECT_EQ(std::memcmp(&a.residual, &b.residual, sizeof(double)), 0) << what;
}

TEST(LemkePaths, AnswersAreSolveLemkesToTheBitAndKnownPathsAddNoTableaux) {
  std::mt19937 rng(17);
  const int n = 7;
  const Eigen::MatrixXd A = random_matrix(n, rng);
  const Eigen::MatrixXd W = A * A.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n);
  std::normal_distribution<double> g;
  std::vector<Eigen::VectorXd> ws;
  for (int k = 0; k < 400; ++k) {
    Eigen::VectorXd w(n);
    for (int i = 0; i < n; ++i) w[i] = g(rng);
    ws.push_back(w);
  }
  LemkePaths paths(W);
  LcpSolution reused;  // the allocation-free overload, its storage reused from problem to problem
  for (const Eigen::VectorXd& w : ws) {
    const LcpSolution expected = solve_lemke(W, w);
    ASSERT_TRUE(expected.ok());
    expect_same_bits(paths.solve(w), expected, "first pass");
    paths.solve(w, reused);
    expect_same_bits(reused, expected, "into reused storage");
  }
  const int kept = paths.tableaux();
  EXPECT_GT(kept, n);  // many paths were met
  for (const Eigen::VectorXd& w : ws) expect_same_bits(paths.solve(w), solve_lemke(W, w), "second pass");
  EXPECT_EQ(paths.tableaux(), kept);  // every path was known
}

// Degenerate data: every ratio test ties (the lexicographic rule decides), and a problem Lemke
// alone cannot solve, which solve_lemke hands to enumeration: LemkePaths gives the same answers.
TEST(LemkePaths, TiesAndFallbacksMatchSolveLemke) {
  const Eigen::MatrixXd ones = Eigen::MatrixXd::Constant(4, 4, 1.0);
  LemkePaths tied(ones);
  for (double c : {-1.0, -2.0, 0.5})
    expect_same_bits(tied.solve(Eigen::VectorXd::Constant(4, c)), solve_lemke(ones, Eigen::VectorXd::Constant(4, c)),
                     "ties");
  Eigen::Matrix4d W;
  W << 1.6, -1.2, 1.2, 0, -1.2, 3.4, -3.4, 1, 1.2, -3.4, 3.4, 1, 1, -1, -1, 0;
  LemkePaths friction(W);
  const Eigen::Vector4d ray(1e-6, 1e-13, -1e-13, 0);
  const LcpSolution s = friction.solve(ray);
  EXPECT_EQ(s.method, LcpSolution::Method::enumeration);
  expect_same_bits(s, solve_lemke(W, ray), "enumeration fallback");
  // An unsolvable problem ends as solve_lemke's does, in a ray.
  LemkePaths none(Eigen::MatrixXd::Constant(1, 1, -1.0));
  const LcpSolution r = none.solve(Eigen::VectorXd::Constant(1, -1.0));
  EXPECT_EQ(r.status, LcpSolution::Status::ray_termination);
  expect_same_bits(r, solve_lemke(Eigen::MatrixXd::Constant(1, 1, -1.0), Eigen::VectorXd::Constant(1, -1.0)), "ray");
}

TEST(LemkePaths, RefusesAProblemOfAnotherSize) {
  LemkePaths paths(Eigen::MatrixXd::Identity(3, 3));
  EXPECT_THROW(paths.solve(Eigen::VectorXd::Ones(4)), std::invalid_argument);
}

}  // namespace
}  // namespace impactsim
