// Pins: phi = x_A - x_B, G = d phi / dq Gamma and Gdot v against finite differences on a 3-D chain.
#include <gtest/gtest.h>

#include <random>

#include "core/pin.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

TEST(Pin, RowsAreTheRelativePositionAndItsDerivatives) {
  std::mt19937 rng(6);
  const Model m = testing::chain_model(3, rng);
  const std::vector<PinDef> pins{{"world_pin", 2, Vec3(0.1, -0.2, 0.3), -1, Vec3(0.5, 0.5, 0.5)},
                                 {"link_pin", 1, Vec3(0.2, 0, 0), 2, Vec3(-0.1, 0.4, 0)}};
  ASSERT_EQ(pin_rows(m), 3);
  Kinematics kin(m);
  PinState s, ahead, behind;
  for (int trial = 0; trial < 5; ++trial) {
    const Eigen::VectorXd q = testing::random_q(m, rng), v = testing::random_v(m, rng);
    evaluate_pins(m, pins, q, v, kin, s);
    ASSERT_EQ(s.phi.size(), 6);
    update_kinematics(m, q, kin);
    const Vec3 x0 = point_position(kin, 2, pins[0].point_a) - pins[0].point_b;
    EXPECT_LT((s.phi.head<3>() - x0).norm(), 1e-14);
    const double h = 1e-6;
    evaluate_pins(m, pins, testing::integrate(m, q, v, h), v, kin, ahead);
    evaluate_pins(m, pins, testing::integrate(m, q, v, -h), v, kin, behind);
    EXPECT_LT((s.G * v - (ahead.phi - behind.phi) / (2 * h)).norm(), 1e-7);                // G v = phidot
    EXPECT_LT((s.Gdot_v - (ahead.G * v - behind.G * v) / (2 * h)).norm(), 1e-5);           // Gdot v
  }
}

TEST(Pin, PlanarModelsHaveTwoRowsPerPin) {
  std::mt19937 rng(7);
  const Model m = testing::planar_model(rng);
  EXPECT_EQ(pin_rows(m), 2);
  Kinematics kin(m);
  PinState s;
  evaluate_pins(m, {{"p", 1, Vec3(0, -1, 0), -1, Vec3::Zero()}}, neutral_configuration(m), Eigen::VectorXd::Zero(m.nv),
                kin, s);
  ASSERT_EQ(s.phi.size(), 2);
  EXPECT_EQ(s.G.rows(), 2);
  EXPECT_EQ(s.Gdot_v, Eigen::Vector2d::Zero());  // at rest
}

}  // namespace
}  // namespace impactsim
