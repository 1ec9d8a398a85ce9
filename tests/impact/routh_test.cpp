// The Routh sampler against Halm and Posa's rocking block (§5.4.1) and its invariants.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <thread>

#include "impact/routh.hpp"
#include "tests/impact/contact_spaces.hpp"

namespace impactsim {
namespace {

using testing::rocking_block;
using testing::rocking_block_drop;

RouthSettings paper_settings() {
  RouthSettings s;
  s.h = 0.3;  // Table 4
  s.max_steps = 10;
  return s;
}

// 16384 samples (the paper's M = 2^14): exactly three outcome classes, rest, A lifts, B lifts; never
// both; the lift speed bounded by the sequential 0.0930 and reaching above 0.08.
TEST(Routh, RockingBlockSamplesFallIntoThreeClasses) {
  const RouthLaw law(paper_settings());
  const ContactSpace c = rocking_block();
  Rng rng(2024);
  int rest = 0, a_lifts = 0, b_lifts = 0;
  double fastest = 0, solves = 0;
  const int samples = 16384;
  for (int k = 0; k < samples; ++k) {
    const ImpactResult r = law.resolve(c, rocking_block_drop(), rng);
    ASSERT_TRUE(r.ok) << r.diagnostic;
    const Eigen::Vector2d vn = c.J_n * r.v_plus, vt = c.J_t * r.v_plus;
    ASSERT_GE(vn.minCoeff(), -1e-8);
    EXPECT_LT(vt.cwiseAbs().maxCoeff(), 1e-9);  // the corners do not slide
    const bool a = vn[0] > 1e-7, b = vn[1] > 1e-7;
    ASSERT_FALSE(a && b) << "both corners lifting: " << vn.transpose();
    rest += !a && !b;
    a_lifts += a;
    b_lifts += b;
    fastest = std::max(fastest, vn.maxCoeff());
    EXPECT_LE(r.kinetic_energy_plus, r.kinetic_energy_minus * (1 + 1e-12));
    EXPECT_LT(r.lcp_residual, 1e-9);
    solves += r.lcp_solves;
  }
  EXPECT_GT(rest, samples / 10);
  EXPECT_GT(a_lifts, samples / 10);
  EXPECT_GT(b_lifts, samples / 10);
  EXPECT_LE(fastest, 0.0930 + 1e-4);
  EXPECT_GT(fastest, 0.08);
  // About 2.5 LCP solves per sample (2.46 with Lemke in an independent re-implementation; the
  // paper's Table 3 says 2.67).
  EXPECT_GT(solves / samples, 2.0);
  EXPECT_LT(solves / samples, 3.0);
}

// Theorem 7: kinetic energy never rises from one step to the next.
TEST(Routh, EveryStepDissipates) {
  const RouthLaw law(paper_settings());
  Rng rng(7);
  std::uniform_real_distribution<double> u(0.01, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    Eigen::MatrixXd draws(2, 10);
    for (int k = 0; k < draws.size(); ++k) draws.data()[k] = u(rng);
    double previous = 0.5 * rocking_block_drop().dot(rocking_block().M * rocking_block_drop());
    for (int steps = 1; steps <= 10; ++steps) {
      RouthSettings s = paper_settings();
      s.max_steps = steps;
      const ImpactResult r = RouthLaw(s).resolve_with(rocking_block(), rocking_block_drop(), draws, rng);
      EXPECT_LE(r.kinetic_energy_plus, previous * (1 + 1e-12) + 1e-15) << "trial " << trial << " step " << steps;
      previous = r.kinetic_energy_plus;
      if (r.terminated) break;
    }
  }
}

// Homogeneity (the step LCP is linear in v and lambda_max): scaling the pre-impact velocity and h by k scales the sample by k.
TEST(Routh, SamplesScaleWithTheImpact) {
  Rng rng(3);
  std::uniform_real_distribution<double> u(0.01, 1.0);
  Eigen::MatrixXd draws(2, 10);
  for (int k = 0; k < draws.size(); ++k) draws.data()[k] = u(rng);
  const Eigen::Vector3d v = Eigen::Vector3d(0.1, -0.4429, 0.05);
  const ImpactResult base = RouthLaw(paper_settings()).resolve_with(rocking_block(), v, draws, rng);
  for (double k : {0.1, 3.0, 25.0}) {
    RouthSettings s = paper_settings();
    s.h *= k;
    const ImpactResult scaled = RouthLaw(s).resolve_with(rocking_block(), k * v, draws, rng);
    EXPECT_LT((scaled.v_plus - k * base.v_plus).norm(), 1e-12 * k) << k;
    EXPECT_EQ(scaled.lcp_solves, base.lcp_solves);
  }
  // The default h scales with the impact too.
  const RouthLaw automatic;
  const ImpactResult a = automatic.resolve_with(rocking_block(), v, draws, rng);
  const ImpactResult b = automatic.resolve_with(rocking_block(), 4 * v, draws, rng);
  EXPECT_LT((b.v_plus - 4 * a.v_plus).norm(), 1e-12);
}

// With h larger than any contact needs, the first step is the Anitescu-Potra impact: rest.
TEST(Routh, LargeStepGivesTheSimultaneousImpact) {
  RouthSettings s;
  s.h = 100;
  Rng rng(1);
  const ImpactResult r = RouthLaw(s).resolve(rocking_block(), rocking_block_drop(), rng);
  EXPECT_EQ(r.lcp_solves, 1);
  EXPECT_LT(r.v_plus.norm(), 1e-12);
}

TEST(Routh, RandomSolutionChoiceStaysWithinTheInvariants) {
  RouthSettings s = paper_settings();
  s.solution = RouthSettings::Solution::random;
  const RouthLaw law(s);
  Rng rng(11);
  for (int k = 0; k < 500; ++k) {
    const ImpactResult r = law.resolve(rocking_block(), rocking_block_drop(), rng);
    ASSERT_TRUE(r.ok) << r.diagnostic;
    EXPECT_GE((rocking_block().J_n * r.v_plus).minCoeff(), -1e-8);
    EXPECT_LE(r.kinetic_energy_plus, r.kinetic_energy_minus * (1 + 1e-12));
    EXPECT_LT(r.lcp_residual, 1e-9);
  }
}

// Quasi-random lambda_max: sample i is the i-th Sobol point, so it replays on its own; the rocking
// block's three classes appear and the invariants hold.
TEST(Routh, SobolSamplesReplayByIndexAndKeepTheInvariants) {
  RouthSettings s = paper_settings();
  s.sampling = RouthSettings::Sampling::sobol;
  const ContactSpace c = rocking_block();
  const RouthImpact impact(c, rocking_block_drop(), s);
  Rng rng(1);
  int rest = 0, a = 0, b = 0;
  double fastest = 0;
  for (std::uint64_t i = 0; i < 4096; ++i) {
    const ImpactResult r = impact.sample(i, rng);
    ASSERT_TRUE(r.ok) << r.diagnostic;
    const Eigen::Vector2d vn = c.J_n * r.v_plus;
    ASSERT_GE(vn.minCoeff(), -1e-8);
    ASSERT_FALSE(vn[0] > 1e-7 && vn[1] > 1e-7);
    rest += vn.maxCoeff() <= 1e-7;
    a += vn[0] > 1e-7;
    b += vn[1] > 1e-7;
    fastest = std::max(fastest, vn.maxCoeff());
    EXPECT_LE(r.kinetic_energy_plus, r.kinetic_energy_minus * (1 + 1e-12));
  }
  EXPECT_GT(rest, 400);
  EXPECT_GT(a, 400);
  EXPECT_GT(b, 400);
  EXPECT_LE(fastest, 0.0930 + 1e-4);
  EXPECT_GT(fastest, 0.08);
  Rng other(99);
  EXPECT_EQ(impact.sample(1234, rng).v_plus, impact.sample(1234, other).v_plus);  // replays by index alone
  EXPECT_NE(impact.sample(1234, rng).v_plus, impact.sample(1235, rng).v_plus);
}

// Frictionless contacts have no friction block in the step LCP: corner A frictionless, B with the
// paper's mu = 1, then both frictionless (no tangential impulse at all, so the block's horizontal
// velocity is untouched: its normals are vertical).
TEST(Routh, FrictionlessContactsCarryNoFrictionBlock) {
  const RouthLaw law(paper_settings());
  Rng rng(5);
  for (const Eigen::Vector2d& mu : {Eigen::Vector2d(0, 1), Eigen::Vector2d(0, 0)}) {
    ContactSpace c = rocking_block();
    c.mu = mu;
    const Eigen::Vector3d v_minus = rocking_block_drop() + Eigen::Vector3d(0.3, 0, 0);
    for (int k = 0; k < 300; ++k) {
      const ImpactResult r = law.resolve(c, v_minus, rng);
      ASSERT_TRUE(r.ok) << r.diagnostic;
      EXPECT_EQ(r.impulse_t[0], 0.0);
      EXPECT_GE((c.J_n * r.v_plus).minCoeff(), -1e-8);
      EXPECT_LE(r.kinetic_energy_plus, r.kinetic_energy_minus * (1 + 1e-12));
      if (mu[1] == 0) {
        EXPECT_EQ(r.impulse_t[1], 0.0);
        EXPECT_EQ(r.v_plus[0], v_minus[0]);
      }
    }
  }
}

TEST(Routh, StepCapIsFlaggedNeverAccepted) {
  RouthSettings s = paper_settings();
  s.h = 1e-4;  // far too small to finish in 10 steps
  Rng rng(1);
  const ImpactResult r = RouthLaw(s).resolve(rocking_block(), rocking_block_drop(), rng);
  EXPECT_FALSE(r.terminated);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.steps, 10);
  EXPECT_NE(r.diagnostic.find("still approaches after 10 steps"), std::string::npos) << r.diagnostic;
}

// A prepared impact solves its step LCPs with the thread's LemkePaths from its second sample on;
// a fresh impact (law.resolve) uses solve_lemke. The samples must agree to the bit, on any thread.
TEST(Routh, KeptPivotPathsChangeNoSampleOnAnyThread) {
  const RouthLaw law(paper_settings());
  const ContactSpace c = rocking_block();
  const std::unique_ptr<PreparedImpact> prepared = law.prepare(c, rocking_block_drop());
  const int samples = 3000;
  auto sample_range = [&](int from, int to, std::vector<Eigen::VectorXd>& out) {
    for (int i = from; i < to; ++i) {
      Rng rng(1000 + i);
      out[i] = prepared->sample(i, rng).v_plus;
    }
  };
  std::vector<Eigen::VectorXd> one(samples), two(samples);
  sample_range(0, samples, one);
  std::thread other([&] { sample_range(samples / 2, samples, two); });
  sample_range(0, samples / 2, two);
  other.join();
  for (int i = 0; i < samples; ++i) {
    Rng rng(1000 + i);
    const Eigen::VectorXd fresh = law.resolve(c, rocking_block_drop(), rng).v_plus;
    ASSERT_EQ(std::memcmp(one[i].data(), fresh.data(), sizeof(double) * fresh.size()), 0) << "sample " << i;
    ASSERT_EQ(std::memcmp(two[i].data(), fresh.data(), sizeof(double) * fresh.size()), 0) << "sample " << i;
  }
}

}  // namespace
}  // namespace impactsim
