// The broadphase's bound is a true lower bound on phi, far-apart bodies cost no exact distance,
// and the margin changes nothing but speed.
#include <gtest/gtest.h>

#include <random>

#include "collision/broadphase.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

// Two cubes (8 corner contacts each against the other's box) and cube 0's corners against the
// ground, with the bodies' poses given directly.
struct TwoCubes {
  std::vector<Geometry> geometries;
  std::vector<ContactDef> contacts;
  TwoCubes() {
    for (int k = 0; k < 2; ++k) {
      Geometry g;
      g.name = "cube" + std::to_string(k);
      g.body = k;
      g.shape.type = ShapeType::box;
      g.shape.size = Vec3(0.2, 0.3, 0.4);
      geometries.push_back(g);
    }
    Geometry ground;
    ground.name = "ground";
    ground.shape.type = ShapeType::halfspace;
    geometries.push_back(ground);
    for (int a = 0; a < 2; ++a)
      for (int c = 0; c < 8; ++c) {
        const Vec3 corner(c & 1 ? 0.1 : -0.1, c & 2 ? 0.15 : -0.15, c & 4 ? 0.2 : -0.2);
        const std::string index = std::to_string(a * 8 + c);
        contacts.push_back({std::string("c").append(index), a, corner, 0.0, 1 - a});
        if (a == 0) contacts.push_back({std::string("g").append(index), 0, corner, 0.0, 2});
      }
  }
};

struct Poses {
  std::vector<Mat3> R;
  std::vector<Vec3> p;
};

Poses at(const Vec3& p0, const Vec3& p1, std::mt19937& rng) {
  return {{testing::random_rotation(rng), testing::random_rotation(rng)}, {p0, p1}};
}

TEST(Broadphase, BoundNeverExceedsTheExactDistance) {
  TwoCubes s;
  const ContactModel cm(s.geometries, s.contacts, false);
  const Broadphase bp(cm);
  EXPECT_EQ(bp.groups(), 3);
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  std::vector<ContactFrame> frames(cm.size());
  for (int trial = 0; trial < 200; ++trial) {
    const Poses x = at(Vec3(u(rng), u(rng), 0.3 + std::abs(u(rng))), Vec3(u(rng), u(rng), u(rng)), rng);
    bp.update(cm, 0.05, x.R, x.p, frames);
    for (int i = 0; i < cm.size(); ++i) {
      const double exact = cm.frame(x.R, x.p, i).phi;
      EXPECT_LE(frames[i].phi, exact + 1e-12) << cm.contact(i).name;
      const double bound = bp.bound(cm, x.R, x.p, i);
      EXPECT_LE(bound, exact + 1e-12) << cm.contact(i).name;
      if (bound > 0.05) {
        EXPECT_EQ(frames[i].phi, bound);  // far: the bound itself
      }
      if (frames[i].phi <= 0.05) {
        EXPECT_DOUBLE_EQ(frames[i].phi, exact);  // within the margin it is exact
      }
    }
  }
}

// One contact's phi is update's, to the bit, whether its group is near (exact) or far (the bound):
// the event loop's root finding reads one impact guard through it.
TEST(Broadphase, OneContactsPhiIsTheSameAsUpdates) {
  TwoCubes s;
  const ContactModel cm(s.geometries, s.contacts, false);
  const Broadphase bp(cm);
  std::mt19937 rng(6);
  std::uniform_real_distribution<double> u(-0.6, 0.6);
  std::vector<ContactFrame> frames(cm.size());
  int near = 0, far = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Poses x = at(Vec3(u(rng), u(rng), 0.25 + std::abs(u(rng))), Vec3(u(rng), u(rng), u(rng)), rng);
    bp.update(cm, 0.05, x.R, x.p, frames);
    for (int i = 0; i < cm.size(); ++i) {
      EXPECT_EQ(bp.phi(cm, 0.05, x.R, x.p, i), frames[i].phi) << cm.contact(i).name;
      (frames[i].phi == cm.frame(x.R, x.p, i).phi ? near : far) += 1;
    }
  }
  EXPECT_GT(near, 100);  // both branches were met
  EXPECT_GT(far, 100);
}

TEST(Broadphase, FarApartBodiesCostNoExactDistance) {
  TwoCubes s;
  const ContactModel cm(s.geometries, s.contacts, false);
  const Broadphase bp(cm);
  std::mt19937 rng(5);
  std::vector<ContactFrame> frames(cm.size());
  Poses x = at(Vec3(0, 0, 5), Vec3(10, 0, 5), rng);
  EXPECT_EQ(bp.update(cm, 0.05, x.R, x.p, frames), 0);
  x = at(Vec3(0, 0, 5), Vec3(0.25, 0, 5), rng);  // cubes near each other, far from the ground
  const int near_cubes = bp.update(cm, 0.05, x.R, x.p, frames);
  EXPECT_GT(near_cubes, 0);
  EXPECT_LE(near_cubes, 16);
  EXPECT_EQ(bp.update(cm, 10.0, x.R, x.p, frames), cm.size());  // a margin that holds every corner
}

// Within a group near enough for exact distances, a corner is computed exactly only where its own
// bound (the point against the other solid's plane or bounding sphere) is within the margin. Axis-
// aligned cubes (0.2 x 0.3 x 0.4 m): cube 0 standing on the ground has its four bottom corners at
// phi = 0 and its top ones 0.4 m up; beside cube 1 (faces touching along x), each cube's four corners
// on the touching face lie on the other's bounding sphere (bound 0) and the four behind it 0.12 m
// outside it.
TEST(Broadphase, ACornerFarFromTheOtherSolidCostsNoExactDistance) {
  TwoCubes s;
  const ContactModel cm(s.geometries, s.contacts, false);
  const Broadphase bp(cm);
  std::vector<ContactFrame> frames(cm.size());
  const Poses x{{Mat3::Identity(), Mat3::Identity()}, {Vec3(0, 0, 0.2), Vec3(0.2, 0, 0.2)}};
  EXPECT_EQ(bp.update(cm, 0.05, x.R, x.p, frames), 12);  // 4 on the ground, 4 + 4 between the cubes
  for (int i = 0; i < cm.size(); ++i) {
    const double exact = cm.frame(x.R, x.p, i).phi;
    if (exact <= 0.05) {
      EXPECT_EQ(frames[i].phi, exact) << cm.contact(i).name;
    } else {
      EXPECT_GT(frames[i].phi, 0.05) << cm.contact(i).name;
      EXPECT_LE(frames[i].phi, exact + 1e-12) << cm.contact(i).name;
    }
    EXPECT_EQ(bp.phi(cm, 0.05, x.R, x.p, i), frames[i].phi) << cm.contact(i).name;
  }
}

}  // namespace
}  // namespace impactsim
