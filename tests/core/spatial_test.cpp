// Transform algebra against its 6x6 matrix form (Featherstone 2.8-2.9).
#include <gtest/gtest.h>

#include "core/spatial.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

Transform random_transform(std::mt19937& rng) { return {testing::random_rotation(rng), testing::random_vec(rng, 2)}; }

Vec6 random6(std::mt19937& rng) { return spatial(testing::random_vec(rng), testing::random_vec(rng)); }

TEST(Spatial, TransformActionsAgreeWithTheMatrixForm) {
  std::mt19937 rng(1);
  for (int i = 0; i < 20; ++i) {
    const Transform X = random_transform(rng);
    const Mat6 Xm = X.matrix();
    const Vec6 m = random6(rng), f = random6(rng);
    EXPECT_LT((X.apply_motion(m) - Xm * m).norm(), 1e-12);
    EXPECT_LT((X.apply_force(f) - Xm.inverse().transpose() * f).norm(), 1e-12);
    EXPECT_LT((X.transpose_apply_force(f) - Xm.transpose() * f).norm(), 1e-12);
    EXPECT_LT((X.inverse_apply_motion(m) - Xm.inverse() * m).norm(), 1e-12);
  }
}

TEST(Spatial, CompositionMultipliesMatrices) {
  std::mt19937 rng(2);
  const Transform a = random_transform(rng), b = random_transform(rng);
  EXPECT_LT(((a * b).matrix() - a.matrix() * b.matrix()).norm(), 1e-12);
}

TEST(Spatial, PowerIsInvariantUnderChangeOfFrame) {
  std::mt19937 rng(3);
  const Transform X = random_transform(rng);
  const Vec6 m = random6(rng), f = random6(rng);
  EXPECT_NEAR(X.apply_motion(m).dot(X.apply_force(f)), m.dot(f), 1e-12);
}

TEST(Spatial, ForceCrossIsMinusTransposedMotionCross) {
  std::mt19937 rng(4);
  const Vec6 a = random6(rng), b = random6(rng), c = random6(rng);
  // (a x* b) . c = -b . (a x c)
  EXPECT_NEAR(cross_force(a, b).dot(c), -b.dot(cross_motion(a, c)), 1e-12);
}

TEST(Spatial, InertiaGivesKineticEnergyOfARigidBody) {
  // A point mass m at c moving with spatial velocity [w; v] has speed v + w x c.
  const double m = 3.0;
  const Vec3 c(0.2, -0.4, 1.0), w(0.3, 0.1, -0.7), v(1.0, 2.0, 0.5);
  const Mat6 I = spatial_inertia(m, c, Mat3::Zero());
  const Vec6 s = spatial(w, v);
  EXPECT_NEAR(0.5 * s.dot(I * s), 0.5 * m * (v + w.cross(c)).squaredNorm(), 1e-12);
}

}  // namespace
}  // namespace impactsim
