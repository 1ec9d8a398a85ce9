// The broadphase's bound is a true lower bound on phi, far-apart bodies cost no exact distance,
// and the margin changes nothing but speed.
#include <gtest/gtest.h>

#include <algorithm>
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

// The contacts whose names start with `prefix`, ascending.
std::vector<int> named(const ContactModel& cm, const std::string& prefix) {
  std::vector<int> out;
  for (int i = 0; i < cm.size(); ++i)
    if (cm.contact(i).name.rfind(prefix, 0) == 0) out.push_back(i);
  return out;
}

// A near set follows a group exactly where its bound is within the margin plus the reaches of its
// two bodies (the world has none) and lists their contacts in order; with `keep` it also keeps the
// groups it followed. Each body's budget is the least share of the slack (bound - margin) of the
// groups left out, split between their bodies by reach. Axis-aligned cubes (bounding radius
// 0.2693 m): cube 0's ground group has the bound z - 0.2693, the two cubes' groups x - 0.5385.
TEST(Broadphase, ANearSetFollowsTheGroupsWithinItsBodiesReaches) {
  TwoCubes s;
  const ContactModel cm(s.geometries, s.contacts, false);
  const Broadphase bp(cm);
  Poses x{{Mat3::Identity(), Mat3::Identity()}, {Vec3(0, 0, 0.5), Vec3(3, 0, 0.5)}};  // ground bound 0.2307
  NearSet near = bp.everything(cm);
  EXPECT_TRUE(near.all);
  EXPECT_EQ(near.contacts.size(), static_cast<size_t>(cm.size()));
  bp.select_near(cm, 0.05, {0.1, 0.1}, x.R, x.p, false, near);
  EXPECT_FALSE(near.all);
  EXPECT_TRUE(near.groups.empty());
  EXPECT_TRUE(near.contacts.empty());
  const double r = Vec3(0.2, 0.3, 0.4).norm() / 2;
  EXPECT_NEAR(near.budget[0], 0.5 - r - 0.05, 1e-12);         // the ground's slack, the world taking none
  EXPECT_NEAR(near.budget[1], (3 - 2 * r - 0.05) / 2, 1e-12);  // half the cubes' slack
  bp.select_near(cm, 0.05, {0.2, 0.1}, x.R, x.p, false, near);  // 0.2307 <= 0.05 + 0.2
  EXPECT_EQ(near.contacts, named(cm, "g"));
  EXPECT_NEAR(near.budget[0], (3 - 2 * r - 0.05) * 2 / 3, 1e-12);  // the cubes' slack, by reach 0.2 : 0.1
  x.p[1] = Vec3(0.7, 0, 0.5);  // the cubes' bound 0.1615 <= 0.05 + 0.1 + 0.1; the ground's > 0.05 + 0.1
  bp.select_near(cm, 0.05, {0.1, 0.1}, x.R, x.p, false, near);
  EXPECT_EQ(near.contacts, named(cm, "c"));
  EXPECT_EQ(near.groups.size(), 2u);
  x.p[1] = Vec3(3, 0, 0.5);
  bp.select_near(cm, 0.05, {0.1, 0.1}, x.R, x.p, true, near);  // kept, though far now
  EXPECT_EQ(near.contacts, named(cm, "c"));
  bp.select_near(cm, 0.05, {0.1, 0.1}, x.R, x.p, false, near);
  EXPECT_TRUE(near.contacts.empty());
  EXPECT_EQ(near.R.size(), 2u);  // the poses it was selected at
  EXPECT_EQ(near.p[1], x.p[1]);
}

// The near set's promise: while every body is within its budget of the poses the set was selected
// at (holds), every group it leaves out has its bound, and so every phi of it, above the margin;
// holds names the bodies that went further. A budget is at least the body's reach: what the groups
// left out leave of their slack. The features sit off the bodies' origins (cube 0's
// corners 0.3 m from it, cube 1's box 0.25 m), so turning a body moves what its bounds read too.
TEST(Broadphase, WhileANearSetHoldsTheGroupsItLeavesOutStayBeyondTheMargin) {
  TwoCubes s;
  const Vec3 corner_offset(0, 0.3, 0), box_offset(0.25, 0, 0);
  for (ContactDef& c : s.contacts)
    if (c.body_a == 0) c.point += corner_offset;
  s.geometries[0].shape.position = corner_offset;
  s.geometries[1].shape.position = box_offset;
  for (ContactDef& c : s.contacts)
    if (c.body_a == 1) c.point += box_offset;
  const ContactModel cm(s.geometries, s.contacts, false);
  const Broadphase bp(cm);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1), budget(0.01, 0.3), scale(0, 0.6);
  int held = 0, broken = 0, left_out = 0;
  NearSet near;
  for (int trial = 0; trial < 400; ++trial) {
    const Poses x0 = at(Vec3(u(rng), u(rng), 0.4 + std::abs(u(rng))), Vec3(u(rng), u(rng), 0.4 + std::abs(u(rng))), rng);
    const std::vector<double> reach{budget(rng), budget(rng)};
    bp.select_near(cm, 0.05, reach, x0.R, x0.p, false, near);
    Poses x = x0;
    for (int k = 0; k < 2; ++k) {  // a move and a turn, each within some multiple of the budget
      EXPECT_GE(near.budget[k], reach[k]) << trial;
      const double f = scale(rng), b = std::min(near.budget[k], 3.0);
      x.p[k] += f * b * testing::random_vec(rng).normalized();
      x.R[k] = Eigen::AngleAxisd(f * b / 0.3, testing::random_vec(rng).normalized()).toRotationMatrix() * x.R[k];
    }
    std::vector<int> over;
    const bool holds = bp.holds(near, x.R, x.p, 1.0, &over);
    for (int k = 0; k < 2; ++k) {
      const bool within = bp.motion(k, x0.R[k], x0.p[k], x.R[k], x.p[k]) <= near.budget[k];
      EXPECT_EQ(std::find(over.begin(), over.end(), k) == over.end(), within) << trial;
    }
    if (!holds) {
      ++broken;
      continue;
    }
    ++held;
    for (int i = 0; i < cm.size(); ++i) {
      if (std::binary_search(near.contacts.begin(), near.contacts.end(), i)) continue;
      ++left_out;
      EXPECT_GT(bp.bound(cm, x.R, x.p, i), 0.05) << trial << " " << cm.contact(i).name;
      EXPECT_GT(cm.frame(x.R, x.p, i).phi, 0.05) << trial << " " << cm.contact(i).name;
    }
  }
  EXPECT_GT(held, 50);  // both sides were met, and groups were left out while the set held
  EXPECT_GT(broken, 50);
  EXPECT_GT(left_out, 500);
}

// update over a near set computes its contacts with the whole pass's bits and leaves every other
// frame as it was.
TEST(Broadphase, AnUpdateOverANearSetTouchesOnlyItsContacts) {
  TwoCubes s;
  const ContactModel cm(s.geometries, s.contacts, false);
  const Broadphase bp(cm);
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> u(-0.6, 0.6);
  NearSet near;
  int followed = 0, untouched = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const Poses x = at(Vec3(u(rng), u(rng), 0.25 + std::abs(u(rng))), Vec3(u(rng), u(rng), u(rng)), rng);
    bp.select_near(cm, 0.05, {0.05, 0.05}, x.R, x.p, false, near);
    std::vector<ContactFrame> whole(cm.size()), part(cm.size());
    for (ContactFrame& f : part) f.phi = -7.0;
    bp.update(cm, 0.05, x.R, x.p, whole);
    bp.update(cm, 0.05, x.R, x.p, near, part);
    for (int i = 0; i < cm.size(); ++i) {
      if (std::binary_search(near.contacts.begin(), near.contacts.end(), i)) {
        ++followed;
        EXPECT_EQ(part[i].phi, whole[i].phi) << cm.contact(i).name;
        EXPECT_EQ(part[i].normal, whole[i].normal) << cm.contact(i).name;
      } else {
        ++untouched;
        EXPECT_EQ(part[i].phi, -7.0) << cm.contact(i).name;
      }
    }
  }
  EXPECT_GT(followed, 100);
  EXPECT_GT(untouched, 100);
}

// Some groups are followed wherever their bodies are: those holding a gated contact or the contact a
// gate refers to (a walker's feet: behind() reads both), and those against a halfspace a body
// carries (its bound turns with the body, by a lever no budget bounds).
TEST(Broadphase, GatedContactsAndCarriedHalfspacesAreAlwaysNear) {
  TwoCubes s;
  Geometry paddle;
  paddle.name = "paddle";
  paddle.body = 1;
  paddle.shape.type = ShapeType::halfspace;
  s.geometries.push_back(paddle);
  s.contacts.push_back({"p0", 0, Vec3(0.1, 0.15, 0.2), 0.0, 3});
  const auto g1 = std::find_if(s.contacts.begin(), s.contacts.end(), [](const ContactDef& c) { return c.name == "g1"; });
  s.contacts[0].only_ahead_of = static_cast<int>(g1 - s.contacts.begin());  // c0 gated behind g1
  const ContactModel cm(s.geometries, s.contacts, false);
  const Broadphase bp(cm);
  const Poses x{{Mat3::Identity(), Mat3::Identity()}, {Vec3(0, 0, 5), Vec3(30, 0, -5)}};
  NearSet near;
  bp.select_near(cm, 0.05, {0.01, 0.01}, x.R, x.p, false, near);
  std::vector<int> expected = named(cm, "c");  // c0's group: cube 0's corners against cube 1 (c0..c7)
  expected.resize(8);
  const std::vector<int> ground = named(cm, "g"), carried = named(cm, "p");  // g1's group, the paddle's
  expected.insert(expected.end(), ground.begin(), ground.end());
  expected.insert(expected.end(), carried.begin(), carried.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(near.contacts, expected);
  EXPECT_EQ(near.groups.size(), 3u);
}

}  // namespace
}  // namespace impactsim
