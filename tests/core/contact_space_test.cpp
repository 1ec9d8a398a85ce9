// The law's input from the contact stage: the contact space over some of M's blocks is the whole one
// restricted to them; contact islands join contacts through shared trees.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/contact_data.hpp"
#include "tests/test_models.hpp"

namespace impactsim {
namespace {

// Twelve free bodies at random origins (body i of mass 0.5 + i): twelve blocks of M, 72 velocities.
Model twelve_free_bodies(std::mt19937& rng) {
  Model m;
  for (int i = 0; i < 12; ++i) {
    Body b;
    b.name = "body" + std::to_string(i);
    b.joint.type = JointType::free;
    b.joint.origin = testing::random_vec(rng);
    b.mass = 0.5 + i;
    b.inertia = testing::random_inertia(rng);
    m.bodies.push_back(b);
  }
  finalize_model(m);
  return m;
}

// Over some of M's blocks (an impact's island), the law's input is the whole one restricted to
// their velocities: nothing of the contacts' rows lies outside them, and from 64 velocities on it
// carries their blocks, renumbered.
TEST(ContactData, ContactSpaceOverBlocksIsTheWholeRestrictedToThem) {
  std::mt19937 rng(13);
  const Model m = twelve_free_bodies(rng);
  std::vector<Geometry> g(2);
  g[0].shape.type = ShapeType::halfspace;
  g[1].body = 8;
  g[1].shape = testing::sphere_shape(0.2);
  const ContactModel cm(g, {{"a", 2, Vec3(0.1, 0, 0), 0.0, 0, 0.3, 0.2}, {"b", 7, Vec3(0, 0.2, 0), 0.05, 1, 0.6, 0.4}},
                        m.planar);
  ContactData data(m, cm);
  compute_contact_data(m, cm, testing::random_q(m, rng), testing::random_v(m, rng), {}, data);
  ASSERT_EQ(data.body.M_llt.blocks().size(), 12u);
  const ContactSpace whole = contact_space(cm, ContactSettings{}, data.body, data.jac, {1, 0});
  for (const std::vector<int>& blocks : {std::vector<int>{2, 7, 8}, std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}}) {
    const std::vector<int> cols = block_columns(data.body, blocks);
    ASSERT_EQ(cols.size(), 6 * blocks.size());
    const ContactSpace part = contact_space(cm, ContactSettings{}, data.body, data.jac, {1, 0}, blocks);
    EXPECT_EQ(part.M, data.body.M(cols, cols));
    EXPECT_EQ(part.J_n, whole.J_n(Eigen::all, cols));
    EXPECT_EQ(part.J_t, whole.J_t(Eigen::all, cols));
    EXPECT_EQ(part.J_n.norm(), whole.J_n.norm());  // no row reaches outside the blocks
    EXPECT_EQ(part.J_t.norm(), whole.J_t.norm());
    EXPECT_GT(part.J_n.row(0).norm(), 0.0);
    EXPECT_EQ(part.mu, whole.mu);
    EXPECT_EQ(part.e, whole.e);
    EXPECT_EQ(part.ids, whole.ids);
    EXPECT_EQ(part.friction_directions, 8);
    EXPECT_EQ(part.tangent_dim, 2);
    if (cols.size() < 64) {
      EXPECT_TRUE(part.M_blocks.empty());
      continue;
    }
    ASSERT_EQ(part.M_blocks.size(), blocks.size());
    for (size_t k = 0; k < blocks.size(); ++k) {
      EXPECT_EQ(part.M_blocks[k].start, static_cast<int>(6 * k));
      EXPECT_EQ(part.M_blocks[k].size, 6);
    }
  }
}

// Contacts grouped by the trees they move, joined through shared trees; one ContactIslands reused
// over other sets gives what a fresh one gives.
TEST(ContactData, ContactIslandsJoinContactsThroughSharedTrees) {
  std::mt19937 rng(29);
  const Model m = twelve_free_bodies(rng);
  std::vector<Geometry> g(3);
  g[0].shape.type = ShapeType::halfspace;
  g[1].body = 8;
  g[1].shape = testing::sphere_shape(0.2);
  g[2].body = 4;
  g[2].shape = testing::sphere_shape(0.2);
  // Contact i: a point of body `body` against geometry `geometry` (0: the world's ground).
  const ContactModel cm(g,
                        {{"a", 2, Vec3::Zero(), 0.0, 0, 0.3, 0.0},
                         {"b", 7, Vec3::Zero(), 0.0, 1, 0.3, 0.0},
                         {"c", 3, Vec3::Zero(), 0.0, 0, 0.3, 0.0},
                         {"d", 8, Vec3::Zero(), 0.0, 0, 0.3, 0.0},
                         {"e", 2, Vec3::Zero(), 0.0, 2, 0.3, 0.0}},
                        m.planar);
  ContactData data(m, cm);
  compute_contact_data(m, cm, testing::random_q(m, rng), testing::random_v(m, rng), {}, data);
  ASSERT_EQ(data.body.M_llt.blocks().size(), 12u);
  using Lists = std::vector<std::vector<int>>;
  struct Case {
    std::vector<int> set;
    Lists contacts, blocks;  // positions in set; blocks (here a body's index)
  };
  const std::vector<Case> cases{
      {{0, 1, 2, 3, 4}, {{0, 4}, {1, 3}, {2}}, {{2, 4}, {7, 8}, {3}}},
      {{2, 3}, {{0}, {1}}, {{3}, {8}}},
      {{1}, {{0}}, {{7, 8}}},
      {{4, 0, 1}, {{0, 1}, {2}}, {{2, 4}, {7, 8}}},
      {{}, {}, {}},
      {{3, 1, 0, 2}, {{0, 1}, {2}, {3}}, {{7, 8}, {2}, {3}}},
  };
  ContactIslands reused;
  for (const Case& c : cases) {
    const ContactIslands fresh = contact_islands(data.body, data.jac, c.set);
    EXPECT_EQ(fresh.contacts, c.contacts);
    EXPECT_EQ(fresh.blocks, c.blocks);
    contact_islands(data.body, data.jac, c.set, reused);
    EXPECT_EQ(reused.contacts, c.contacts);
    EXPECT_EQ(reused.blocks, c.blocks);
  }
}

}  // namespace
}  // namespace impactsim
