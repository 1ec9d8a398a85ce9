// Declared settings: defaults in declaration order, typed reads, and how the docs name each kind.
#include <gtest/gtest.h>

#include <stdexcept>

#include "numerics/settings.hpp"

namespace impactsim {
namespace {

std::vector<SettingSpec> specs() {
  return {number_setting("h", SettingKind::positive, 0.0, "automatic", "N s"), count_setting("steps", 100, "100", ""),
          choice_setting("order", {"a", "b", "c"}, ""), flag_setting("on", true, ""), contacts_setting("list", "")};
}

TEST(Settings, HoldTheDefaultsInDeclarationOrder) {
  const Settings s(specs());
  ASSERT_EQ(s.values().size(), 5u);
  EXPECT_EQ(s.values()[2].first, "order");
  EXPECT_EQ(s.number("h"), 0.0);
  EXPECT_EQ(s.integer("steps"), 100);
  EXPECT_EQ(s.word("order"), "a");
  EXPECT_TRUE(s.flag("on"));
  EXPECT_TRUE(s.indices("list").empty());
}

TEST(Settings, SetReplacesADeclaredValueOfItsType) {
  Settings s(specs());
  s.set("h", 0.25);
  s.set("list", std::vector<int>{2, 0});
  EXPECT_EQ(s.number("h"), 0.25);
  EXPECT_EQ(s.indices("list"), (std::vector<int>{2, 0}));
}

TEST(Settings, AnUndeclaredKeyOrAnotherTypeIsAProgrammingError) {
  Settings s(specs());
  EXPECT_THROW(s.number("H"), std::logic_error);
  EXPECT_THROW(s.integer("h"), std::logic_error);
  EXPECT_THROW(s.set("steps", 3.0), std::logic_error);
  EXPECT_THROW(s.set("nope", 1.0), std::logic_error);
  EXPECT_EQ(s.integer("steps"), 100);  // a refused set changes nothing
}

TEST(Settings, EachKindHasItsTypeText) {
  std::vector<SettingSpec> all = specs();
  EXPECT_EQ(setting_type_text(all[0]), "number > 0");
  EXPECT_EQ(setting_type_text(all[1]), "integer 1..2e9");
  EXPECT_EQ(setting_type_text(all[2]), "`a`, `b`, `c`");
  EXPECT_EQ(setting_type_text(all[3]), "bool");
  EXPECT_EQ(setting_type_text(all[4]), "list of contact names");
  EXPECT_EQ(setting_type_text(number_setting("R", SettingKind::fraction, -1, "", "")), "number in [0, 1]");
  EXPECT_EQ(setting_type_text(number_setting("e", SettingKind::non_negative, 0, "", "")), "number >= 0");
  EXPECT_EQ(setting_type_text(contact_setting("c", 0, "", "")), "contact name");
}

TEST(Settings, TheHelpersDeclareTheirKindsDefaultsAndFallbacks) {
  const SettingSpec order = choice_setting("order", {"cyclic", "list"}, "how");
  EXPECT_EQ(std::get<std::string>(order.value), "cyclic");
  EXPECT_EQ(order.fallback, "`cyclic`");
  EXPECT_EQ(flag_setting("on", false, "").fallback, "false");
  EXPECT_TRUE(order.in_scene);
  EXPECT_FALSE(fixed_setting(order).in_scene);
  EXPECT_EQ(contacts_setting("list", "").kind, SettingKind::contacts);
}

TEST(Settings, AProblemIsTrueOnlyWithAMessage) {
  EXPECT_FALSE(SettingProblem{});
  EXPECT_FALSE((SettingProblem{"h", ""}));
  EXPECT_TRUE((SettingProblem{"", "order: list needs a list"}));
}

}  // namespace
}  // namespace impactsim
