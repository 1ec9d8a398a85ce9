// Isotropic Coulomb friction at impacts against closed forms: a sphere struck obliquely on a rough
// floor, sliding on or rolling off; the same impact whichever way the scene is turned about the
// normal; the cone's conditions and the energy over random piles; the same without the polygon's
// start (solve_directly_in_circular_cone).
#include "impact/circular_cone.hpp"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "impact/anitescu_potra.hpp"
#include "impact/laws.hpp"
#include "tests/impact/contact_spaces.hpp"

namespace impactsim {
namespace {

using Eigen::Vector3d;

// Rows (normal, t1, t2) of a contact at point r [m] from a free body's centre of mass, velocities
// (v, omega) in the world frame.
Eigen::Matrix<double, 3, 6> point_rows(const Vector3d& r, const Vector3d& n, const Vector3d& t1, const Vector3d& t2) {
  Eigen::Matrix<double, 3, 6> J;
  J.row(0) << n.transpose(), r.cross(n).transpose();
  J.row(1) << t1.transpose(), r.cross(t1).transpose();
  J.row(2) << t2.transpose(), r.cross(t2).transpose();
  return J;
}

// A free body with contacts at `points` on the floor z = 0 (normal +z, tangents x and y).
ContactSpace on_floor(double mass, const Eigen::Matrix3d& inertia, const std::vector<Vector3d>& points, double mu,
                      bool circular = true) {
  const int m = static_cast<int>(points.size());
  ContactSpace c;
  c.tangent_dim = 2;
  c.M = Eigen::MatrixXd::Zero(6, 6);
  c.M.topLeftCorner<3, 3>() = mass * Eigen::Matrix3d::Identity();
  c.M.bottomRightCorner<3, 3>() = inertia;
  c.J_n.resize(m, 6);
  c.J_t.resize(2 * m, 6);
  for (int i = 0; i < m; ++i) {
    const Eigen::Matrix<double, 3, 6> J = point_rows(points[i], Vector3d::UnitZ(), Vector3d::UnitX(), Vector3d::UnitY());
    c.J_n.row(i) = J.row(0);
    c.J_t.middleRows(2 * i, 2) = J.bottomRows(2);
  }
  c.mu = Eigen::VectorXd::Constant(m, mu);
  c.e = Eigen::VectorXd::Zero(m);
  c.circular_cone = circular;
  return c;
}

Eigen::VectorXd body_velocity(const Vector3d& v, const Vector3d& w) {
  Eigen::VectorXd out(6);
  out << v, w;
  return out;
}

ImpactResult anitescu_potra(const ContactSpace& c, const Eigen::VectorXd& v_minus) {
  Rng rng(1);
  return make_law("anitescu-potra")->resolve(c, v_minus, rng);
}

// A solid sphere (I = 2/5 m a^2) landing at vz < 0 with slip u at its lowest point: the plastic
// impact gives lambda = m |vz| and, sliding throughout, friction mu lambda against u, which slows
// the slip by mu lambda (1/m + a^2/I) = 3.5 mu |vz| and keeps its direction; if that would reverse
// it, the sphere leaves rolling. Every direction of slip gives the same answer.
TEST(CircularCone, ASphereStruckObliquelySlidesOnAtAnyAngle) {
  const double m = 2.0, a = 0.1, mu = 0.3, vz = -1.0, slip = 2.0;
  const ContactSpace c = on_floor(m, 0.4 * m * a * a * Eigen::Matrix3d::Identity(), {Vector3d(0, 0, -a)}, mu);
  for (double degrees : {0.0, 10.0, 22.5, 45.0, 137.0}) {
    const double angle = degrees * M_PI / 180;
    const Vector3d s(std::cos(angle), std::sin(angle), 0);
    const ImpactResult r = anitescu_potra(c, body_velocity(slip * s + Vector3d(0, 0, vz), Vector3d::Zero()));
    ASSERT_TRUE(r.ok) << r.diagnostic;
    EXPECT_NEAR(r.impulse_n[0], m, 1e-12);
    const Vector3d u = (c.J_t * r.v_plus).homogeneous();
    EXPECT_NEAR((u.head<2>() - (slip - 3.5 * mu) * s.head<2>()).norm(), 0.0, 1e-12) << degrees;
    EXPECT_NEAR((r.impulse_t + mu * m * s.head<2>()).norm(), 0.0, 1e-12) << degrees;
    EXPECT_LT(r.cone_residual, 1e-12 * m);
    // The 8-edge polygon misses the closed form between its directions.
    const ImpactResult polygon = anitescu_potra(on_floor(m, c.M.bottomRightCorner<3, 3>(), {Vector3d(0, 0, -a)}, mu, false),
                                                body_velocity(slip * s + Vector3d(0, 0, vz), Vector3d::Zero()));
    if (degrees == 22.5) {
      EXPECT_GT((c.J_t * polygon.v_plus - (slip - 3.5 * mu) * s.head<2>()).norm(), 1e-3);
    }
  }
}

TEST(CircularCone, ASlowSlipLeavesRolling) {
  const double m = 2.0, a = 0.1, mu = 0.3, vz = -1.0, slip = 0.9;  // below 3.5 mu |vz| = 1.05
  const ContactSpace c = on_floor(m, 0.4 * m * a * a * Eigen::Matrix3d::Identity(), {Vector3d(0, 0, -a)}, mu);
  const Vector3d s(std::cos(0.7), std::sin(0.7), 0);
  const ImpactResult r = anitescu_potra(c, body_velocity(slip * s + Vector3d(0, 0, vz), Vector3d::Zero()));
  ASSERT_TRUE(r.ok) << r.diagnostic;
  EXPECT_LT((c.J_t * r.v_plus).norm(), 1e-12);  // rolling: no slip
  EXPECT_NEAR(r.impulse_t.norm(), slip / 3.5 * m, 1e-12);  // the impulse that stops the slip
  EXPECT_LT(r.impulse_t.norm(), mu * r.impulse_n[0]);
  // Rolling without slipping: v = omega x (a z) at the centre.
  EXPECT_NEAR((r.v_plus.head<3>() - r.v_plus.tail<3>().cross(Vector3d(0, 0, a))).norm(), 0.0, 1e-12);
}

// A 0.6 x 0.4 x 0.2 m box, 3 kg, with the velocity, spin and contact points turned by psi about the
// floor's normal while the tangent basis stays: turned back, the outcome must not depend on psi.
std::vector<Eigen::VectorXd> turned_outcomes(const std::vector<Vector3d>& corners, const Vector3d& v, const Vector3d& w,
                                             bool circular, const std::string& law) {
  const double m = 3.0;
  const Vector3d h(0.3, 0.2, 0.1);
  const Eigen::Matrix3d I = Vector3d(m / 3 * (h.y() * h.y() + h.z() * h.z()), m / 3 * (h.x() * h.x() + h.z() * h.z()),
                                     m / 3 * (h.x() * h.x() + h.y() * h.y())).asDiagonal();
  std::vector<Eigen::VectorXd> out;
  for (double degrees : {0.0, 10.0, 22.5, 45.0}) {
    const Eigen::Matrix3d R = Eigen::AngleAxisd(degrees * M_PI / 180, Vector3d::UnitZ()).toRotationMatrix();
    std::vector<Vector3d> points;
    for (const Vector3d& p : corners) points.push_back(R * p);
    const ContactSpace c = on_floor(m, R * I * R.transpose(), points, 0.5, circular);
    Rng rng(3);
    const ImpactResult r = make_law(law)->resolve(c, body_velocity(R * v, R * w), rng);
    EXPECT_TRUE(r.ok) << r.diagnostic;
    out.push_back(body_velocity(R.transpose() * r.v_plus.head<3>(), R.transpose() * r.v_plus.tail<3>()));
    EXPECT_LE(r.kinetic_energy_plus, r.kinetic_energy_minus * (1 + 1e-12));
    EXPECT_GE(r.impulse_n.minCoeff(), 0.0);
  }
  return out;
}

double spread(const std::vector<Eigen::VectorXd>& outcomes) {
  double worst = 0;
  for (const Eigen::VectorXd& o : outcomes) worst = std::max(worst, (o - outcomes[0]).cwiseAbs().maxCoeff());
  return worst;
}

TEST(CircularCone, ACornerImpactDoesNotDependOnHowTheSceneIsTurned) {
  const std::vector<Vector3d> corner = {Vector3d(-0.3, -0.2, -0.1)};
  const Vector3d v(1.0, 0.4, -1.2), w(2, -1, 3);
  for (const char* law : {"anitescu-potra", "sequential", "routh"}) {
    EXPECT_LT(spread(turned_outcomes(corner, v, w, true, law)), 1e-9) << law;
    EXPECT_GT(spread(turned_outcomes(corner, v, w, false, law)), 1e-4) << law;  // the polygon does
  }
}

// Landing flat while sliding at 1 m/s: plastic, all four corners close, and friction mu m |vz|
// against the slip leaves the box sliding at 1 - mu |vz| = 0.75 m/s in its own direction, whichever
// way it points.
TEST(CircularCone, ABoxLandingFlatWhileSlidingKeepsItsDirection) {
  std::vector<Vector3d> corners;
  for (double x : {-0.3, 0.3})
    for (double y : {-0.2, 0.2}) corners.emplace_back(x, y, -0.1);
  for (double degrees : {0.0, 10.0, 22.5, 45.0}) {
    const double angle = degrees * M_PI / 180;
    const Vector3d v(std::cos(angle), std::sin(angle), -0.5);
    const std::vector<Eigen::VectorXd> outcomes = turned_outcomes(corners, v, Vector3d::Zero(), true, "anitescu-potra");
    for (const Eigen::VectorXd& o : outcomes) {
      EXPECT_NEAR((o.head<2>() - 0.75 * v.head<2>()).norm(), 0.0, 1e-9) << degrees;
      EXPECT_NEAR(o[2], 0.0, 1e-12);
    }
  }
}

// Coulomb's law at the outcome r of a plastic impact: every frictional contact's impulse in the
// cone, against its slip where it slides, the normal complementarity, and no energy gained.
void expect_coulomb(const ContactSpace& c, const ImpactResult& r) {
  const double scale = 1.0 + r.impulse_n.cwiseAbs().maxCoeff();
  EXPECT_LE(r.kinetic_energy_plus, r.kinetic_energy_minus + 1e-9 * scale);
  for (int i = 0; i < c.contacts(); ++i) {
    const double pn = r.impulse_n[i], vn = c.J_n.row(i).dot(r.v_plus);
    EXPECT_GE(pn, -1e-12 * scale);
    EXPECT_GE(vn, -1e-9 * scale);
    EXPECT_LT(std::abs(pn * vn), 1e-9 * scale * scale);
    const Eigen::Vector2d P = r.impulse_t.segment<2>(2 * i), u = c.J_t.middleRows(2 * i, 2) * r.v_plus;
    EXPECT_LE(P.norm(), c.mu[i] * pn + 1e-9 * scale);
    if (u.norm() > 1e-8) {
      EXPECT_NEAR((P + c.mu[i] * pn * u.normalized()).norm(), 0.0, 1e-9 * scale);
    }
  }
}

// Random piles of blocks, solved from the polygon's answer and directly.
TEST(CircularCone, RandomPilesMeetCoulombsLaw) {
  std::mt19937 gen(11);
  for (int trial = 0; trial < 20; ++trial) {
    ContactSpace c = testing::pile_of_blocks(gen, 4);
    c.e.setZero();
    std::normal_distribution<double> normal(0.0, 1.0);
    Eigen::VectorXd v(c.M.rows());
    for (Eigen::Index k = 0; k < v.size(); ++k) v[k] = normal(gen);
    const ImpactResult r = anitescu_potra(c, v);
    ASSERT_TRUE(r.ok) << r.diagnostic;
    expect_coulomb(c, r);
    const ImpactResult direct = solve_directly_in_circular_cone(c, mass_factor(c), v);
    ASSERT_TRUE(direct.ok) << direct.diagnostic;
    expect_coulomb(c, direct);
    EXPECT_EQ(direct.lcp_solves, 0);
  }
}

// Without the polygon's start Newton reaches the same closed forms: the sphere sliding on or
// rolling off, and the box landing flat (four dependent corners) sliding on at 1 - mu |vz|.
TEST(CircularCone, SolvedDirectlyTheClosedFormsHold) {
  const double m = 2.0, a = 0.1, mu = 0.3, vz = -1.0;
  const ContactSpace sphere = on_floor(m, 0.4 * m * a * a * Eigen::Matrix3d::Identity(), {Vector3d(0, 0, -a)}, mu);
  const Vector3d s(std::cos(0.7), std::sin(0.7), 0);
  for (double slip : {2.0, 0.9}) {
    const Eigen::VectorXd v = body_velocity(slip * s + Vector3d(0, 0, vz), Vector3d::Zero());
    const ImpactResult r = solve_directly_in_circular_cone(sphere, mass_factor(sphere), v);
    ASSERT_TRUE(r.ok) << r.diagnostic;
    EXPECT_NEAR(r.impulse_n[0], m, 1e-12);
    const Eigen::Vector2d u = sphere.J_t * r.v_plus;
    EXPECT_NEAR((u - std::max(slip - 3.5 * mu, 0.0) * s.head<2>()).norm(), 0.0, 1e-12) << slip;
    EXPECT_LT(r.kinetic_energy_plus, r.kinetic_energy_minus);
  }
  std::vector<Vector3d> corners;
  for (double x : {-0.3, 0.3})
    for (double y : {-0.2, 0.2}) corners.emplace_back(x, y, -0.1);
  const Eigen::Matrix3d I = Vector3d(0.25 * 0.2, 0.25 * 0.4, 0.25 * 0.52).asDiagonal();  // m (b^2 + c^2) / 12
  const ContactSpace box = on_floor(3.0, I, corners, 0.5);
  const Eigen::VectorXd v = body_velocity(Vector3d(s.x(), s.y(), -0.5), Vector3d::Zero());
  const ImpactResult r = solve_directly_in_circular_cone(box, mass_factor(box), v);
  ASSERT_TRUE(r.ok) << r.diagnostic;
  EXPECT_NEAR((r.v_plus.head<2>() - 0.75 * s.head<2>()).norm(), 0.0, 1e-9);
  EXPECT_NEAR(r.v_plus.tail<4>().norm(), 0.0, 1e-9);  // no vertical velocity, no spin
  expect_coulomb(box, r);
}

}  // namespace
}  // namespace impactsim
