// solve_at_support against Lemke's method on symmetric positive semi-definite LCPs: the jammed
// set's frictionless impact problems W = J_n M^-1 J_n^T (singular: more rows than degrees of
// freedom), and positive definite ones, where the solution is unique.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include <Eigen/LU>

#include "numerics/lcp_support.hpp"
#include "tests/impact/jammed_lcps.hpp"

namespace impactsim {
namespace {

struct Problem {
  Eigen::MatrixXd W;
  Eigen::VectorXd w;
};

// The frictionless impact LCP of jammed problem `index`: W = J_n M^-1 J_n^T, w = J_n v-.
Problem frictionless(int index) {
  const testing::JammedLcp j = testing::jammed_lcp(index);
  const Eigen::MatrixXd Minv_JnT = j.space.M.llt().solve(j.space.J_n.transpose());
  return {j.space.J_n * Minv_JnT, j.space.J_n * j.v_minus};
}

std::vector<int> positive(const Eigen::VectorXd& z) {
  std::vector<int> S;
  for (int i = 0; i < z.size(); ++i)
    if (z[i] > 0) S.push_back(i);
  return S;
}

// An answer the function called solved: z >= 0, the residual solve_lemke accepts, and the slack
// of Lemke's answer (W z is the same at every solution of a PSD LCP).
void expect_solution(const Problem& p, const LcpSolution& sol, const LcpSolution& lemke) {
  EXPECT_EQ(sol.status, LcpSolution::Status::solved);
  EXPECT_EQ(sol.method, LcpSolution::Method::support);
  ASSERT_EQ(sol.z.size(), p.w.size());
  EXPECT_GE(sol.z.minCoeff(), 0.0);
  EXPECT_LE(lcp_residual(p.W, p.w, sol.z), LcpOptions{}.accept_tolerance);
  EXPECT_LE((sol.slack - (p.W * sol.z + p.w)).cwiseAbs().maxCoeff(), 1e-12 * (1 + p.w.cwiseAbs().maxCoeff()));
  const double scale = 1 + p.w.cwiseAbs().maxCoeff() + (p.W.cwiseAbs() * lemke.z.cwiseAbs()).maxCoeff();
  EXPECT_LE((sol.slack - lemke.slack).cwiseAbs().maxCoeff(), 1e-8 * scale);
}

TEST(LcpSupport, LemkesSupportIsMadeGoodOnJammedProblems) {
  int singular = 0;
  for (int index = 0; index < 300; ++index) {
    SCOPED_TRACE(index);
    const Problem p = frictionless(index);
    const LcpSolution lemke = solve_lemke(p.W, p.w);
    ASSERT_TRUE(lemke.ok());
    singular += Eigen::FullPivLU<Eigen::MatrixXd>(p.W).rank() < p.W.rows();
    LcpSolution sol;
    ASSERT_TRUE(solve_at_support(p.W, p.w, positive(lemke.z), sol));
    expect_solution(p, sol, lemke);
  }
  EXPECT_GT(singular, 200);  // the set is what it claims: jammed (241 of these 300)
}

TEST(LcpSupport, WrongGuessesAreCorrectedOrRefused) {
  int corrected = 0, tried = 0;
  for (int index = 0; index < 300; ++index) {
    SCOPED_TRACE(index);
    const Problem p = frictionless(index);
    const LcpSolution lemke = solve_lemke(p.W, p.w);
    ASSERT_TRUE(lemke.ok());
    const int n = static_cast<int>(p.w.size());
    std::vector<int> all(n);
    for (int i = 0; i < n; ++i) all[i] = i;
    std::vector<int> fewer = positive(lemke.z);
    if (!fewer.empty()) fewer.erase(fewer.begin() + index % fewer.size());
    for (const std::vector<int>& guess : {std::vector<int>{}, all, fewer}) {
      LcpSolution sol;
      ++tried;
      if (!solve_at_support(p.W, p.w, guess, sol)) continue;
      ++corrected;
      expect_solution(p, sol, lemke);
    }
  }
  // Nearly every wrong guess is put right within the rounds (899 of 900; four rounds of block
  // swaps with least-norm solves made good 850); none may come back wrong (above).
  EXPECT_GE(corrected, tried - tried / 100);
}

TEST(LcpSupport, PositiveDefiniteProblemsGiveLemkesUniqueAnswer) {
  std::mt19937 rng(11);
  std::normal_distribution<double> normal;
  for (int n : {1, 3, 10, 40, 120}) {
    SCOPED_TRACE(n);
    Eigen::MatrixXd B(n, n);
    for (int i = 0; i < n * n; ++i) B.data()[i] = normal(rng);
    Problem p{B * B.transpose() + Eigen::MatrixXd::Identity(n, n), Eigen::VectorXd(n)};
    for (int i = 0; i < n; ++i) p.w[i] = normal(rng);
    const LcpSolution lemke = solve_lemke(p.W, p.w);
    ASSERT_TRUE(lemke.ok());
    std::vector<int> guess = positive(lemke.z);
    guess.push_back(n - 1);  // one variable wrong either way: in when it is zero, or twice when positive
    LcpSolution sol;
    ASSERT_TRUE(solve_at_support(p.W, p.w, guess, sol));
    expect_solution(p, sol, lemke);
    EXPECT_LE((sol.z - lemke.z).cwiseAbs().maxCoeff(), 1e-9 * (1 + lemke.z.cwiseAbs().maxCoeff()));
  }
}

// Guesses several variables off either way are solved through the bordered system on the first
// round's factor (and afresh where the border grows), to Lemke's unique answer; from nothing
// guessed, or everything, Murty's rule carries the rounds to it on positive definite W.
TEST(LcpSupport, GuessesFarFromTheSupportReachTheUniqueAnswer) {
  std::mt19937 rng(17);
  std::normal_distribution<double> normal;
  for (int n : {12, 40, 120}) {
    for (int trial = 0; trial < 5; ++trial) {
      SCOPED_TRACE(::testing::Message() << "n " << n << " trial " << trial);
      Eigen::MatrixXd B(n, n);
      for (int i = 0; i < n * n; ++i) B.data()[i] = normal(rng);
      Problem p{B * B.transpose() / n + 0.1 * Eigen::MatrixXd::Identity(n, n), Eigen::VectorXd(n)};
      for (int i = 0; i < n; ++i) p.w[i] = normal(rng);
      const LcpSolution lemke = solve_lemke(p.W, p.w);
      ASSERT_TRUE(lemke.ok());
      std::vector<int> off_by_six;  // three of the support left out, three zeros put in
      int out = 0, in = 0;
      for (int i = 0; i < n; ++i) {
        const bool positive = lemke.z[i] > 0;
        if (positive ? out++ >= 3 : in++ < 3) off_by_six.push_back(i);
      }
      std::vector<int> all(n);
      for (int i = 0; i < n; ++i) all[i] = i;
      for (const std::vector<int>& guess : {off_by_six, std::vector<int>{}, all}) {
        LcpSolution sol;
        ASSERT_TRUE(solve_at_support(p.W, p.w, guess, sol));
        expect_solution(p, sol, lemke);
        EXPECT_LE((sol.z - lemke.z).cwiseAbs().maxCoeff(), 1e-9 * (1 + lemke.z.cwiseAbs().maxCoeff()));
      }
    }
  }
}

// solve_psd_lcp: the support's answer where the guess is made good, Lemke's where it is not (on a
// problem without solution, Lemke's failure), and never an unverified one.
TEST(LcpSupport, PsdSolveFallsBackToLemke) {
  const Problem p = frictionless(7);
  const LcpSolution lemke = solve_lemke(p.W, p.w);
  ASSERT_TRUE(lemke.ok());
  const LcpSolution at_support = solve_psd_lcp(p.W, p.w, positive(lemke.z));
  expect_solution(p, at_support, lemke);
  Eigen::MatrixXd W(2, 2);
  W << 1, -1, -1, 1;
  const Eigen::Vector2d w(-1, -1);  // no solution (below): the support fails, then Lemke
  const LcpSolution none = solve_psd_lcp(W, w, {0, 1});
  EXPECT_FALSE(none.ok());
  EXPECT_NE(none.method, LcpSolution::Method::support);
}

TEST(LcpSupport, ProblemsWithoutSolutionAndNonFiniteDataAreRefused) {
  // z1 - z2 >= 1 and z2 - z1 >= 1 cannot both hold: no solution, whatever the guess.
  Eigen::MatrixXd W(2, 2);
  W << 1, -1, -1, 1;
  const Eigen::VectorXd w = Eigen::Vector2d(-1, -1);
  for (const std::vector<int>& guess : {std::vector<int>{}, {0}, {1}, {0, 1}}) {
    LcpSolution sol;
    EXPECT_FALSE(solve_at_support(W, w, guess, sol));
  }
  LcpSolution sol;
  EXPECT_FALSE(solve_at_support(Eigen::MatrixXd::Identity(2, 2), Eigen::Vector2d(-1, NAN), {0, 1}, sol));
  EXPECT_FALSE(solve_at_support(Eigen::MatrixXd::Identity(2, 2), Eigen::Vector2d(-1, NAN), {}, sol));
}

}  // namespace
}  // namespace impactsim
