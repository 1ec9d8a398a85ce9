#include "core/system_slice.hpp"

#include <gtest/gtest.h>

#include "scenes/scene.hpp"
#include "tests/core/island_scenes.hpp"

namespace impactsim {
namespace {

using testing::island_body;
using testing::island_scene;

TEST(SystemSlice, KeepsItsBodiesTheWorldAndTheContactsAmongThem) {
  const Scene scene = load_scene_text(island_scene(island_body("a", false, 0, 0, 0.05) + island_body("b", true, 0.3, 0, 0.06) +
                                                       island_body("c", false, 0.6, 0, 0.05),
                                                   1.0),
                                      "slice");
  const System& whole = scene.system;
  const SystemSlice s = slice_system(whole, {0, 2}, contacts_by_body(whole));
  ASSERT_EQ(s.system.model.bodies.size(), 2u);
  EXPECT_EQ(s.system.model.bodies[1].name, "c");
  EXPECT_EQ(s.system.model.nq, 14);
  EXPECT_EQ(s.q_index.front(), 0);
  EXPECT_EQ(s.q_index.back(), 20);
  EXPECT_EQ(s.v_index.back(), 17);
  // Every contact of the whole whose bodies are a, c or the world, in order, and no other.
  std::vector<int> expected;
  for (int i = 0; i < whole.contacts.size(); ++i) {
    const int a = whole.contacts.contact(i).body_a, b = whole.contacts.body_b(i);
    if (a != 1 && b != 1) expected.push_back(i);
  }
  EXPECT_EQ(s.contacts, expected);
  ASSERT_FALSE(s.contacts.empty());
  for (int k = 0; k < s.system.contacts.size(); ++k)
    EXPECT_EQ(s.system.contacts.contact(k).name, whole.contacts.contact(s.contacts[k]).name);
}

TEST(SystemSlice, StatesGoThereAndBack) {
  const Scene scene = load_scene_text(island_scene(island_body("a", false, 0, 0, 0.05, 1.0) + island_body("b", true, 0.3, 0, 0.06, 2.0),
                                                   1.0),
                                      "slice");
  const System& whole = scene.system;
  Eigen::VectorXd x(whole.model.nq + whole.model.nv);
  x << scene.initial.q, scene.initial.v;
  const SystemSlice s = slice_system(whole, {1}, contacts_by_body(whole));
  Eigen::VectorXd part;
  gather_state(s, whole, x, part);
  ASSERT_EQ(part.size(), 13);
  EXPECT_EQ(part[0], 0.3);
  EXPECT_EQ(part[7], 2.0);  // vx, the first of v
  Eigen::VectorXd back = Eigen::VectorXd::Zero(x.size());
  scatter_state(s, whole, part.head(7), part.tail(6), back);
  EXPECT_EQ(back.segment(7, 7), x.segment(7, 7));
  EXPECT_EQ(back.tail(6), x.tail(6));
  EXPECT_TRUE(back.head(7).isZero());
}

}  // namespace
}  // namespace impactsim
