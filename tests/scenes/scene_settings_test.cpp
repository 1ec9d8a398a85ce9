// A law's or an integrator's section read as its declarations say: each kind bounds its value, an
// undeclared or fixed key is refused, contacts are named, and a combined problem is located.
#include <gtest/gtest.h>

#include <functional>

#include "scenes/scene_settings.hpp"

namespace impactsim {
namespace {

const std::string kSettingsFile = "settings.yaml";

std::vector<SettingSpec> specs() {
  return {number_setting("h", SettingKind::positive, 0.0, "", ""),
          number_setting("eps", SettingKind::non_negative, 0.0, "", ""),
          number_setting("R", SettingKind::fraction, -1.0, "", ""),
          count_setting("steps", 100, "", ""),
          choice_setting("order", {"cyclic", "list"}, ""),
          flag_setting("exact", true, ""),
          contact_setting("start", 0, "", ""),
          contacts_setting("list", ""),
          fixed_setting(number_setting("tolerance", SettingKind::positive, 1e-8, "", ""))};
}

std::vector<ContactDef> contacts() {
  return {{"A", 0, Vec3(0, 0, 0), 0.0, 0, 0.5, 0.0}, {"B", 0, Vec3(1, 0, 0), 0.0, 0, 0.5, 0.0}};
}

Settings read_settings(const std::string& text) {
  const YAML::Node doc = parse_yaml_text(text, kSettingsFile);
  return read_settings(Field(kSettingsFile, doc, "").child("s"), specs(), contacts());
}

// The SceneError `text` gives, or a failure.
SceneError settings_error(const std::string& text) {
  try {
    read_settings(text);
  } catch (const SceneError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted: " << text;
  return SceneError("", 0, 0, "", "");
}

TEST(SceneSettings, EveryKindIsRead) {
  const Settings s = read_settings("s: {h: 0.3, eps: 0, R: 1, steps: 7, order: list, exact: false, start: B, list: [B, A]}");
  EXPECT_EQ(s.number("h"), 0.3);
  EXPECT_EQ(s.number("eps"), 0.0);
  EXPECT_EQ(s.number("R"), 1.0);
  EXPECT_EQ(s.integer("steps"), 7);
  EXPECT_EQ(s.word("order"), "list");
  EXPECT_FALSE(s.flag("exact"));
  EXPECT_EQ(s.integer("start"), 1);
  EXPECT_EQ(s.indices("list"), (std::vector<int>{1, 0}));
  EXPECT_EQ(s.number("tolerance"), 1e-8);
}

TEST(SceneSettings, AMissingSectionGivesTheDefaults) {
  const Settings s = read_settings("other: 1\n");
  EXPECT_EQ(s.integer("steps"), 100);
  EXPECT_EQ(s.number("R"), -1.0);
}

TEST(SceneSettings, EachKindRefusesWhatItDoesNotHoldAtItsKey) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"s: {h: 0}", "must be positive"},
      {"s: {eps: -1}", "must not be negative"},
      {"s: {R: 1.5}", "must be between 0 and 1"},
      {"s: {steps: 0}", "must be a whole number from 1 to 2000000000"},
      {"s: {steps: 2.5}", "expected a whole number"},
      {"s: {order: random}", "expected cyclic or list, found 'random'"},
      {"s: {exact: 1}", "expected true or false"},
      {"s: {start: C}", "unknown contact 'C'"},
      {"s: {list: [A, D]}", "unknown contact 'D'"},
      {"s: {tolerance: 1}", "unknown key 'tolerance'"},
  };
  for (const auto& [text, message] : cases) {
    const SceneError e = settings_error(text);
    EXPECT_NE(e.message().find(message), std::string::npos) << text << ": " << e.what();
    EXPECT_EQ(e.key().rfind("s", 0), 0u) << text << ": " << e.key();
  }
  EXPECT_EQ(settings_error("s: {list: [A, D]}").key(), "s.list[1]");
}

TEST(SceneSettings, AProblemIsLocatedAtItsKeyOrTheSection) {
  const YAML::Node doc = parse_yaml_text("s:\n  order: list\n", kSettingsFile);
  const Field section = Field(kSettingsFile, doc, "").child("s");
  try {
    fail_at(section, {"order", "needs a list"});
    ADD_FAILURE() << "fail_at returned";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.key(), "s.order");
    EXPECT_EQ(e.line(), 2);
  }
  try {
    fail_at(section, {"", "K_n and B_n cannot both be zero"});
    ADD_FAILURE() << "fail_at returned";
  } catch (const SceneError& e) {
    EXPECT_EQ(e.key(), "s");
    EXPECT_EQ(e.message(), "K_n and B_n cannot both be zero");
  }
}

}  // namespace
}  // namespace impactsim
