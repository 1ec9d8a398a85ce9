#include "numerics/settings.hpp"

#include <stdexcept>

namespace impactsim {

std::string setting_type_text(const SettingSpec& spec) {
  switch (spec.kind) {
    case SettingKind::positive: return "number > 0";
    case SettingKind::non_negative: return "number >= 0";
    case SettingKind::fraction: return "number in [0, 1]";
    case SettingKind::count: return "integer 1..2e9";
    case SettingKind::flag: return "bool";
    case SettingKind::contact: return "contact name";
    case SettingKind::contacts: return "list of contact names";
    case SettingKind::choice: break;
  }
  std::string out;
  for (const std::string& word : spec.choices) out += (out.empty() ? "`" : ", `") + word + "`";
  return out;
}

SettingSpec number_setting(std::string key, SettingKind kind, double value, std::string fallback, std::string meaning) {
  return {std::move(key), kind, value, std::move(fallback), std::move(meaning), {}, true};
}

SettingSpec count_setting(std::string key, long value, std::string fallback, std::string meaning) {
  return {std::move(key), SettingKind::count, value, std::move(fallback), std::move(meaning), {}, true};
}

SettingSpec flag_setting(std::string key, bool value, std::string meaning) {
  std::string fallback = value ? "true" : "false";
  return {std::move(key), SettingKind::flag, value, std::move(fallback), std::move(meaning), {}, true};
}

SettingSpec contact_setting(std::string key, long value, std::string fallback, std::string meaning) {
  return {std::move(key), SettingKind::contact, value, std::move(fallback), std::move(meaning), {}, true};
}

SettingSpec contacts_setting(std::string key, std::string meaning) {
  return {std::move(key), SettingKind::contacts, std::vector<int>{}, "", std::move(meaning), {}, true};
}

SettingSpec choice_setting(std::string key, std::vector<std::string> choices, std::string meaning) {
  std::string first = choices.at(0);
  return {std::move(key), SettingKind::choice, first, "`" + first + "`", std::move(meaning), std::move(choices), true};
}

SettingSpec fixed_setting(SettingSpec spec) {
  spec.in_scene = false;
  return spec;
}

Settings::Settings(const std::vector<SettingSpec>& specs) {
  for (const SettingSpec& spec : specs) values_.emplace_back(spec.key, spec.value);
}

const SettingValue& Settings::at(std::string_view key) const {
  for (const auto& [name, value] : values_)
    if (name == key) return value;
  throw std::logic_error("no setting '" + std::string(key) + "' is declared");
}

namespace {

template <class T>
const T& as(const SettingValue& value, std::string_view key) {
  if (const T* held = std::get_if<T>(&value)) return *held;
  throw std::logic_error("setting '" + std::string(key) + "' is read as another type than it holds");
}

}  // namespace

double Settings::number(std::string_view key) const { return as<double>(at(key), key); }
long Settings::integer(std::string_view key) const { return as<long>(at(key), key); }
bool Settings::flag(std::string_view key) const { return as<bool>(at(key), key); }
const std::string& Settings::word(std::string_view key) const { return as<std::string>(at(key), key); }
const std::vector<int>& Settings::indices(std::string_view key) const { return as<std::vector<int>>(at(key), key); }

void Settings::set(std::string_view key, SettingValue value) {
  SettingValue& held = const_cast<SettingValue&>(at(key));
  if (held.index() != value.index())
    throw std::logic_error("setting '" + std::string(key) + "' is set to another type than it holds");
  held = std::move(value);
}

}  // namespace impactsim
