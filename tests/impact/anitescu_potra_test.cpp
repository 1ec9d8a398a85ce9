// The Anitescu-Potra law against closed forms (point mass, Newton's cradle, the rocking block of
// Halm and Posa §5.4.1) and against its invariants on random contact spaces.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <Eigen/Cholesky>

#include "impact/anitescu_potra.hpp"
#include "numerics/friction_cone.hpp"
#include "tests/impact/contact_spaces.hpp"

namespace impactsim {
namespace {

using testing::rocking_block;

// A planar point mass on the ground: normal +y, tangent +x.
ContactSpace point_on_ground(double mu, double e) {
  ContactSpace c;
  c.M = Eigen::Matrix2d::Identity() * 2.0;
  c.J_n = Eigen::RowVector2d(0, 1);
  c.J_t = Eigen::RowVector2d(1, 0);
  c.mu = Eigen::VectorXd::Constant(1, mu);
  c.e = Eigen::VectorXd::Constant(1, e);
  return c;
}

Rng rng(1);

TEST(AnitescuPotra, RockingBlockComesToRest) {
  const Eigen::Vector3d v_minus(0, -std::sqrt(2 * 9.81 * 0.01), 0);
  const ImpactResult r = AnitescuPotraLaw().resolve(rocking_block(), v_minus, rng);
  ASSERT_TRUE(r.ok) << r.diagnostic;
  EXPECT_LT(r.v_plus.norm(), 1e-12);
  EXPECT_NEAR(r.impulse_n.sum(), std::sqrt(2 * 9.81 * 0.01), 1e-12);  // m v0
  EXPECT_NEAR(r.kinetic_energy_minus, 0.0981, 1e-12);
  EXPECT_LT(r.kinetic_energy_plus, 1e-24);
  EXPECT_LT(r.lcp_residual, 1e-12);
  EXPECT_EQ(r.lcp_solves, 1);
  // The simultaneous LCP has this single outcome (Halm and Posa §5.4.1: rest).
  EXPECT_EQ(anitescu_potra_all_solutions(rocking_block(), v_minus).size(), 1u);
}

TEST(AnitescuPotra, DuplicatedContactsChangeNothing) {
  ContactSpace c = rocking_block();
  c.J_n.conservativeResize(3, 3);
  c.J_n.row(2) = c.J_n.row(0);
  c.J_t.conservativeResize(3, 3);
  c.J_t.row(2) = c.J_t.row(0);
  c.mu = Eigen::Vector3d(1, 1, 1);
  c.e = Eigen::Vector3d::Zero();
  const ImpactResult r = AnitescuPotraLaw().resolve(c, Eigen::Vector3d(0.1, -0.4429, 0.2), rng);
  ASSERT_TRUE(r.ok) << r.diagnostic;
  const ImpactResult ref = AnitescuPotraLaw().resolve(rocking_block(), Eigen::Vector3d(0.1, -0.4429, 0.2), rng);
  EXPECT_LT((r.v_plus - ref.v_plus).norm(), 1e-10);
}

TEST(AnitescuPotra, PointMassSticksOrSlidesByCoulomb) {
  // Normal impulse m vy; it sticks when |vx| <= mu vy, else keeps vx - mu vy sign(vx).
  for (double vx : {-3.0, -0.5, 0.0, 0.4, 2.0}) {
    const double mu = 0.5, vy = 2.0, m = 2.0;
    const ImpactResult r = AnitescuPotraLaw().resolve(point_on_ground(mu, 0), Eigen::Vector2d(vx, -vy), rng);
    ASSERT_TRUE(r.ok);
    const double expected_vx = std::abs(vx) <= mu * vy ? 0.0 : vx - mu * vy * (vx > 0 ? 1 : -1);
    EXPECT_NEAR(r.v_plus[0], expected_vx, 1e-12) << vx;
    EXPECT_NEAR(r.v_plus[1], 0.0, 1e-12);
    EXPECT_NEAR(r.impulse_n[0], m * vy, 1e-12);
    EXPECT_NEAR(r.impulse_t[0], m * (expected_vx - vx), 1e-12);
  }
}

TEST(AnitescuPotra, NewtonRestitutionReversesTheNormalVelocity) {
  for (double e : {0.0, 0.5, 0.9, 1.0}) {
    const ImpactResult r = AnitescuPotraLaw().resolve(point_on_ground(0.0, e), Eigen::Vector2d(1.0, -3.0), rng);
    EXPECT_NEAR(r.v_plus[1], 3.0 * e, 1e-12);
    EXPECT_NEAR(r.v_plus[0], 1.0, 1e-12);
    EXPECT_NEAR(r.kinetic_energy_plus, 0.5 * 2 * (1 + 9 * e * e), 1e-12);
  }
}

// Three equal balls in a row, the first moving into the others: with e = 1 the simultaneous
// law gives (-v/3, 2v/3, 2v/3) and keeps the energy (Halm and Posa's point about simultaneity).
TEST(AnitescuPotra, NewtonsCradleWithElasticSimultaneousImpact) {
  ContactSpace c;
  c.M = Eigen::Matrix3d::Identity();
  c.J_n.resize(2, 3);
  c.J_n << -1, 1, 0, 0, -1, 1;
  c.J_t = Eigen::MatrixXd::Zero(2, 3);
  c.mu = Eigen::Vector2d::Zero();
  c.e = Eigen::Vector2d(1, 1);
  const double v = 1.5;
  const ImpactResult r = AnitescuPotraLaw().resolve(c, Eigen::Vector3d(v, 0, 0), rng);
  EXPECT_LT((r.v_plus - Eigen::Vector3d(-v / 3, 2 * v / 3, 2 * v / 3)).norm(), 1e-12);
  EXPECT_NEAR(r.kinetic_energy_plus, r.kinetic_energy_minus, 1e-12);
}

// A solver failure leaves the velocity untouched and says why: never a silently wrong outcome.
TEST(AnitescuPotra, SolverFailureIsReportedNotGuessed) {
  LcpOptions starved;
  starved.max_pivots = 1;  // the rocking block needs more than one pivot
  const Eigen::Vector3d v_minus(0, -0.4429, 0);
  const ImpactResult r = AnitescuPotraLaw(starved).resolve(rocking_block(), v_minus, rng);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostic.find("Anitescu-Potra LCP with 8 variables: pivot limit"), std::string::npos) << r.diagnostic;
  EXPECT_EQ(r.v_plus, Eigen::VectorXd(v_minus));
}

// `n` solid spheres (2 kg, radius 0.1 m, I = 2/5 m a^2) each on the floor z = 0 at its lowest
// point, one contact each (normal +z, tangents x and y), mu 0.3, in one space, M block by block.
ContactSpace spheres_on_floor(int n) {
  const double m = 2.0, a = 0.1;
  ContactSpace c;
  c.tangent_dim = 2;
  c.M = Eigen::MatrixXd::Zero(6 * n, 6 * n);
  c.J_n = Eigen::MatrixXd::Zero(n, 6 * n);
  c.J_t = Eigen::MatrixXd::Zero(2 * n, 6 * n);
  for (int i = 0; i < n; ++i) {
    c.M.block<6, 6>(6 * i, 6 * i).diagonal() << m, m, m, 0.4 * m * a * a, 0.4 * m * a * a, 0.4 * m * a * a;
    c.M_blocks.push_back({6 * i, 6});
    c.J_n(i, 6 * i + 2) = 1;
    c.J_t.block<2, 6>(2 * i, 6 * i) << 1, 0, 0, 0, -a, 0,  // (v + omega x (-a z)) . x
        0, 1, 0, a, 0, 0;
  }
  c.mu = Eigen::VectorXd::Constant(n, 0.3);
  c.e = Eigen::VectorXd::Zero(n);
  return c;
}

// Spheres enough for kBlockwiseFrom velocities land at 1 m/s, each slipping at its own speed:
// solved in the circular cone without the polygon's LCP (solved_directly_in_circular_cone), each
// meets the closed form of a sphere alone: lambda = m |vz|; the slip slows by 3.5 mu |vz| and keeps
// its direction, or the sphere leaves rolling. One sphere fewer is solved from the polygon's answer.
TEST(AnitescuPotra, ALargeSpaceIsSolvedInTheConeWithoutTheLcp) {
  const int large = (kBlockwiseFrom + 5) / 6;
  for (int n : {large - 1, large}) {
    const ContactSpace c = spheres_on_floor(n);
    EXPECT_EQ(solved_directly_in_circular_cone(c), n == large);
    Eigen::VectorXd v = Eigen::VectorXd::Zero(6 * n);
    std::vector<Eigen::Vector2d> slip;
    for (int i = 0; i < n; ++i) {
      slip.emplace_back(0.25 * i * std::cos(i), 0.25 * i * std::sin(i));  // 0.25 m/s apart: rolling off below 1.05
      v.segment<3>(6 * i) << slip[i], -1.0;
    }
    const ImpactResult r = AnitescuPotraLaw().resolve(c, v, rng);
    ASSERT_TRUE(r.ok) << r.diagnostic;
    EXPECT_EQ(r.lcp_solves, n == large ? 0 : 1);
    EXPECT_LT(r.kinetic_energy_plus, r.kinetic_energy_minus);
    for (int i = 0; i < n; ++i) {
      EXPECT_NEAR(r.impulse_n[i], 2.0, 1e-10) << i;
      const Eigen::Vector2d u = c.J_t.middleRows(2 * i, 2) * r.v_plus;
      const double left = std::max(slip[i].norm() - 3.5 * 0.3, 0.0);
      EXPECT_NEAR((u - left * slip[i].normalized()).norm(), 0.0, 1e-9) << i;
      EXPECT_NEAR(c.J_n.row(i).dot(r.v_plus), 0.0, 1e-10) << i;
    }
  }
}

TEST(AnitescuPotra, ThreeDimensionalPointMassUsesThePolyhedralCone) {
  ContactSpace c;
  c.M = Eigen::Matrix3d::Identity();
  c.J_n = Eigen::RowVector3d(0, 0, 1);
  c.J_t.resize(2, 3);
  c.J_t << 1, 0, 0, 0, 1, 0;
  c.tangent_dim = 2;
  c.mu = Eigen::VectorXd::Constant(1, 0.5);
  c.e = Eigen::VectorXd::Zero(1);
  c.friction_directions = 8;
  c.circular_cone = false;
  // Sliding along a cone direction: friction removes exactly mu * normal impulse along it.
  ImpactResult r = AnitescuPotraLaw().resolve(c, Eigen::Vector3d(2, 0, -1), rng);
  EXPECT_NEAR(r.v_plus[0], 1.5, 1e-12);
  EXPECT_NEAR(r.v_plus[1], 0.0, 1e-12);
  // Slow enough to stick in any direction.
  r = AnitescuPotraLaw().resolve(c, Eigen::Vector3d(0.2, -0.2, -1), rng);
  EXPECT_LT(r.v_plus.norm(), 1e-12);
  // Halfway between two directions the polygon's edge gives mu cos(22.5 deg) of the normal impulse;
  // the circular cone (the default) gives mu, whatever the direction.
  const double a = M_PI / 8;
  r = AnitescuPotraLaw().resolve(c, Eigen::Vector3d(2 * std::cos(a), 2 * std::sin(a), -1), rng);
  EXPECT_NEAR(r.v_plus.head<2>().norm(), 2 - 0.5 * std::cos(a), 1e-12);
  c.circular_cone = true;
  r = AnitescuPotraLaw().resolve(c, Eigen::Vector3d(2 * std::cos(a), 2 * std::sin(a), -1), rng);
  EXPECT_NEAR(r.v_plus.head<2>().norm(), 1.5, 1e-12);
  EXPECT_NEAR(std::atan2(r.v_plus[1], r.v_plus[0]), a, 1e-12);
}

// M = A A^T + I and J with entries drawn from N(0, 1): nv velocities, m contacts, td tangents each.
ContactSpace random_space(std::mt19937& gen, std::normal_distribution<double>& g, int nv, int td, int m) {
  ContactSpace c;
  Eigen::MatrixXd A(nv, nv);
  for (int i = 0; i < nv * nv; ++i) A.data()[i] = g(gen);
  c.M = A * A.transpose() + Eigen::MatrixXd::Identity(nv, nv);
  c.J_n.resize(m, nv);
  c.J_t.resize(m * td, nv);
  for (int i = 0; i < m * nv; ++i) c.J_n.data()[i] = g(gen);
  for (int i = 0; i < m * td * nv; ++i) c.J_t.data()[i] = g(gen);
  c.tangent_dim = td;
  return c;
}

// Invariants on random planar and 3-D contact spaces with e = 0: kinetic energy never rises, the
// LCP residual is tiny, no contact approaches afterwards, impulses lie in the (linearized) cone.
// J has full row rank, so the friction cone is pointed (Halm and Posa, Assumption 2) and a
// solution exists; without it (jamming) the LCP may have none.
TEST(AnitescuPotra, InvariantsOnRandomImpacts) {
  std::mt19937 gen(5);
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> u(0, 2);
  for (int trial = 0; trial < 300; ++trial) {
    const int nv = 3 + trial % 6, td = trial % 2 ? 2 : 1, m = std::max(1, std::min(1 + trial % 4, nv / (1 + td)));
    ContactSpace c = random_space(gen, g, nv, td, m);
    c.friction_directions = 4 + trial % 5;
    c.mu.resize(m);
    for (int i = 0; i < m; ++i) c.mu[i] = u(gen);
    c.e = Eigen::VectorXd::Zero(m);
    Eigen::VectorXd v(nv);
    for (int i = 0; i < nv; ++i) v[i] = g(gen);
    const ImpactResult r = AnitescuPotraLaw().resolve(c, v, rng);
    ASSERT_TRUE(r.ok) << r.diagnostic << " trial " << trial;
    EXPECT_LE(r.kinetic_energy_plus, r.kinetic_energy_minus * (1 + 1e-12) + 1e-14) << trial;
    EXPECT_LT(r.lcp_residual, 1e-9) << trial;
    EXPECT_GE((c.J_n * r.v_plus).minCoeff(), -1e-9) << trial;
    for (int i = 0; i < m; ++i) {
      EXPECT_GE(r.impulse_n[i], 0.0);
      EXPECT_LE(r.impulse_t.segment(i * td, td).norm(), c.mu[i] * r.impulse_n[i] * (1 + 1e-9) + 1e-12) << trial;
    }
  }
}

// Random spaces as above with frictionless contacts among them. The law gives those no friction
// block (k + 1 variables each, whose solution is known: no tangential impulse). All frictionless,
// the impact is a projection with a unique v+: the same as the LCP with a block on every contact.
TEST(AnitescuPotra, FrictionlessContactsCarryNoFrictionBlock) {
  std::mt19937 gen(11);
  std::normal_distribution<double> g;
  for (int trial = 0; trial < 200; ++trial) {
    const int nv = 3 + trial % 6, td = trial % 2 ? 2 : 1, m = std::max(1, std::min(1 + trial % 4, nv / (1 + td)));
    const bool mixed = trial % 3 == 0;
    ContactSpace c = random_space(gen, g, nv, td, m);
    c.friction_directions = 4 + trial % 5;
    c.mu = Eigen::VectorXd::Zero(m);
    for (int i = 0; i < m; ++i) c.mu[i] = mixed && i % 2 ? 0.7 : 0.0;
    c.e = Eigen::VectorXd::Constant(m, trial % 2 ? 0.5 : 0.0);
    Eigen::VectorXd v(nv);
    for (int i = 0; i < nv; ++i) v[i] = g(gen);
    const AnitescuPotraOperator op = anitescu_potra_operator(c);
    EXPECT_EQ(op.layout.blocks(), (c.mu.array() > 0).count()) << trial;
    const ImpactResult r = AnitescuPotraLaw().resolve(c, v, rng);
    ASSERT_TRUE(r.ok) << r.diagnostic << " trial " << trial;
    EXPECT_LT(r.lcp_residual, 1e-9) << trial;
    EXPECT_GE((c.J_n * r.v_plus).minCoeff(), -1e-9) << trial;
    for (int i = 0; i < m; ++i) {
      if (c.mu[i] == 0) {
        EXPECT_EQ(r.impulse_t.segment(i * td, td).norm(), 0.0) << trial;
      }
    }
    if (mixed) {
      if (trial % 2 == 0) {
        EXPECT_LE(r.kinetic_energy_plus, r.kinetic_energy_minus * (1 + 1e-12) + 1e-14) << trial;
      }
      continue;
    }
    // The LCP with a friction block on every contact, solved directly.
    const CoulombLayout full = every_contact_frictional(c.mu, friction_polygon(td, c.friction_directions));
    Eigen::MatrixXd Jbar(m + m * full.k(), nv);
    Jbar << c.J_n, friction_rows(c.J_t, full.D);
    const Eigen::MatrixXd Minv_JbarT = c.M.llt().solve(Jbar.transpose());
    Eigen::VectorXd w_bar = Jbar * v;
    w_bar.head(m) += c.e.cwiseProduct(w_bar.head(m).cwiseMin(0.0));
    const CoulombLcp lcp = build_coulomb_lcp(Jbar * Minv_JbarT, w_bar, full);
    const LcpSolution s = solve_lemke(lcp.W, lcp.w);
    ASSERT_TRUE(s.ok()) << trial;
    const Eigen::VectorXd v_full = v + Minv_JbarT * s.z.head(Jbar.rows());
    EXPECT_LT((r.v_plus - v_full).norm(), 1e-10 * (1 + v.norm())) << trial;
  }
}

// The operator's W is Jbar M^-1 Jbar^T. Below kBlockwiseFrom velocities it is the one dense product
// the recorded outputs were computed with, to the bit; from there on (a pile: M block-diagonal, each
// contact touching two bodies) it is summed block by block and agrees to rounding.
TEST(AnitescuPotra, OperatorHoldsTheDelassusMatrix) {
  std::mt19937 gen(23);
  for (const int bodies : {4, 12}) {
    ContactSpace c = testing::pile_of_blocks(gen, bodies);
    for (int b = 0; b < bodies; ++b) c.M_blocks.push_back({6 * b, 6});
    c.friction_directions = 4;
    const int nv = static_cast<int>(c.M.rows());
    const AnitescuPotraOperator op = anitescu_potra_operator(c);
    const Eigen::MatrixXd Minv_JbarT = c.M.llt().solve(op.Jbar.transpose());
    const Eigen::MatrixXd W = op.Jbar * Minv_JbarT;
    ASSERT_EQ(op.W.rows(), op.Jbar.rows());
    ASSERT_EQ(op.W.cols(), op.Jbar.rows());
    EXPECT_LT((op.W - W).cwiseAbs().maxCoeff(), 1e-12 * W.cwiseAbs().maxCoeff()) << bodies;
    EXPECT_LT((op.Minv_JbarT - Minv_JbarT).cwiseAbs().maxCoeff(), 1e-12 * Minv_JbarT.cwiseAbs().maxCoeff()) << bodies;
    if (nv < kBlockwiseFrom) {
      const Eigen::MatrixXd dense = op.Jbar * mass_factor(c).solve(op.Jbar.transpose());
      EXPECT_TRUE(op.W == dense) << "below kBlockwiseFrom, W is the dense product to the bit";
    }
    // The LCP the law builds holds W as its top-left block, the normal and friction rows.
    const CoulombLcp lcp = build_anitescu_potra_lcp(c, op, Eigen::VectorXd::Zero(nv));
    EXPECT_TRUE(lcp.W.topLeftCorner(W.rows(), W.cols()) == op.W) << bodies;
  }
}

// A uniform rod (1 kg, 2 m, I = 1/3 kg m^2) at a = 30 degrees, its lower end on the ground and
// sliding at u_t = -1 m/s, v = (vx, vy, omega). With J_n = [0, 1, -cos a], J_t = [1, 0, sin a],
// W_nn = 1 + 3 cos^2 a, W_tt = 1 + 3 sin^2 a, W_nt = -3 sin a cos a; the slide has no consistent
// force (Painleve) for mu > W_nn / (3 sin a cos a) = 2.50.
ContactSpace sliding_rod(double mu) {
  const double a = M_PI / 6;
  ContactSpace c;
  c.M = Eigen::Vector3d(1, 1, 1.0 / 3).asDiagonal();
  c.J_n = Eigen::RowVector3d(0, 1, -std::cos(a));
  c.J_t = Eigen::RowVector3d(1, 0, std::sin(a));
  c.mu = Eigen::VectorXd::Constant(1, mu);
  c.e = Eigen::VectorXd::Constant(1, 0.5);  // ignored: no collision
  return c;
}

TEST(AnitescuPotra, ImpactWithoutCollisionJamsAPainleveSlide) {
  const ContactSpace c = sliding_rod(3.5);
  const Eigen::Vector3d v(-1, 0, 0);
  const double approach = 1e-9;
  const ImpactResult r = solve_without_collision(c, v, approach);
  ASSERT_TRUE(r.ok) << r.diagnostic;
  // The jam: P = -W^-1 [0; u_t], so Lambda_n = W_nt u_t / det, Lambda_t = -W_nn u_t / det, det = 4.
  const double a = M_PI / 6, W_nn = 1 + 3 * std::cos(a) * std::cos(a), W_nt = -3 * std::sin(a) * std::cos(a);
  EXPECT_NEAR(r.impulse_n[0], W_nt * -1.0 / 4, 1e-8);
  EXPECT_NEAR(r.impulse_t[0], W_nn / 4, 1e-8);
  EXPECT_NEAR((c.J_t * r.v_plus)(0), 0.0, 1e-8);  // it sticks
  const double vn = (c.J_n * r.v_plus)(0);
  EXPECT_GE(vn, approach * (1 - 1e-6));
  EXPECT_LE(vn, 1e-8);
  EXPECT_LT(r.kinetic_energy_plus, r.kinetic_energy_minus - 0.1);
  // Why the virtual approach: the plain plastic LCP has the zero impulse (the slide goes on, still
  // without forces) as a second solution, which Lemke may return.
  const std::vector<ImpactResult> all = anitescu_potra_all_solutions(c, v);
  ASSERT_EQ(all.size(), 2u);
  const double still = std::min((all[0].v_plus - v).norm(), (all[1].v_plus - v).norm());
  EXPECT_LT(still, 1e-12);
}

TEST(AnitescuPotra, ImpactWithoutCollisionLeavesAConsistentSlideAlone) {
  // mu = 1 < 2.5: the slide has a pushing normal force; the virtual approach costs a negligible impulse.
  const ContactSpace c = sliding_rod(1.0);
  const Eigen::Vector3d v(-1, 0, 0);
  const ImpactResult r = solve_without_collision(c, v, 1e-9);
  ASSERT_TRUE(r.ok) << r.diagnostic;
  EXPECT_LT(r.impulse_n[0], 1e-9);
  EXPECT_LT((r.v_plus - v).norm(), 1e-8);
  EXPECT_LE(r.kinetic_energy_plus, r.kinetic_energy_minus + 1e-9 * r.impulse_n[0] + 1e-18);
}

TEST(AnitescuPotra, StickingImpactIsTheJamOfAPainleveSlide) {
  // The same rod: bringing the contact to rest, normal and tangential, is the jam above.
  const ContactSpace c = sliding_rod(3.5);
  const Eigen::Vector3d v(-1, 0, 0);
  const ImpactResult r = solve_sticking_impact(c, v);
  ASSERT_TRUE(r.ok) << r.diagnostic;
  const double a = M_PI / 6, W_nn = 1 + 3 * std::cos(a) * std::cos(a), W_nt = -3 * std::sin(a) * std::cos(a);
  EXPECT_NEAR(r.impulse_n[0], W_nt * -1.0 / 4, 1e-12);
  EXPECT_NEAR(r.impulse_t[0], W_nn / 4, 1e-12);
  EXPECT_NEAR((c.J_n * r.v_plus)(0), 0.0, 1e-12);
  EXPECT_NEAR((c.J_t * r.v_plus)(0), 0.0, 1e-12);
  EXPECT_LT(r.kinetic_energy_plus, r.kinetic_energy_minus);
}

TEST(AnitescuPotra, StickingImpactRefusesWhatCouldNotStick) {
  // mu = 0.5: the jam needs |P_t| / P_n = W_nn / |W_nt| = 2.5 > mu, friction outside the cone.
  const ContactSpace c = sliding_rod(0.5);
  const Eigen::Vector3d v(-1, 0, 0);
  const ImpactResult r = solve_sticking_impact(c, v);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostic.find("friction outside its cone"), std::string::npos) << r.diagnostic;
  EXPECT_EQ(r.v_plus, v);
  // Leaving upward: holding it shut would pull.
  const ImpactResult up = solve_sticking_impact(sliding_rod(3.5), Eigen::Vector3d(0, 1, 0));
  EXPECT_FALSE(up.ok);
  EXPECT_LT(up.impulse_n[0], 0.0);
  EXPECT_NE(up.diagnostic.find("pulling"), std::string::npos) << up.diagnostic;
}

}  // namespace
}  // namespace impactsim
