#pragma once
// A component's settings declared as a table: each key with its kind, its default and what it
// means, and the values a scene gave. The impact laws (impact/laws.hpp) and the integrators
// (core/integrators.hpp) declare theirs here, and the scene loader reads, `check` and
// metadata.json show, and scenes/README.md documents every one of them from the declarations
// alone, so a law or an integrator never has to be named anywhere else.
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace impactsim {

enum class SettingKind {
  positive,      // a number > 0                              (held as double)
  non_negative,  // a number >= 0                             (double)
  fraction,      // a number in [0, 1]                        (double)
  count,         // a whole number in 1..kMaxSettingCount     (long)
  choice,        // one of SettingSpec::choices               (std::string)
  flag,          // true or false                             (bool)
  contact,       // a contact's name, held as its index       (long)
  contacts,      // a list of contact names, held as indices  (std::vector<int>)
};

// The largest count a setting takes: an int, as the laws keep their caps.
constexpr long kMaxSettingCount = 2'000'000'000;

using SettingValue = std::variant<double, long, bool, std::string, std::vector<int>>;

struct SettingSpec {
  std::string key;
  SettingKind kind = SettingKind::positive;
  SettingValue value;                // the default; a value the kind does not allow (a fraction
                                     // of -1) means "not set", which `fallback` explains
  std::string fallback;              // the default as the documentation says it
  std::string meaning;               // units and what it does
  std::vector<std::string> choices;  // SettingKind::choice: the words, the default among them
  bool in_scene = true;              // false: fixed, shown in metadata.json but no scene key
};

// Declarations by kind, each with its default, the default as the docs say it, and its meaning.
SettingSpec number_setting(std::string key, SettingKind kind, double value, std::string fallback, std::string meaning);
SettingSpec count_setting(std::string key, long value, std::string fallback, std::string meaning);
SettingSpec flag_setting(std::string key, bool value, std::string meaning);
SettingSpec contact_setting(std::string key, long value, std::string fallback, std::string meaning);
SettingSpec contacts_setting(std::string key, std::string meaning);  // default: none
// One of `choices`, the first by default.
SettingSpec choice_setting(std::string key, std::vector<std::string> choices, std::string meaning);
// The same declaration, fixed: shown in metadata.json, not a scene key.
SettingSpec fixed_setting(SettingSpec spec);

// How the documentation names a kind: "number > 0", "`uniform`, `sobol`", "contact name".
std::string setting_type_text(const SettingSpec& spec);

// A problem with settings that only their combination shows: the key to point at ("" for the
// section itself) and the message. Empty message: none.
struct SettingProblem {
  std::string key;
  std::string message;
  explicit operator bool() const { return !message.empty(); }
};

// The values of one component's settings, in the order of its declarations. Reading a key the
// declarations do not hold, or as another type than its kind's, throws std::logic_error: a
// programming error, never a scene's.
class Settings {
 public:
  Settings() = default;
  explicit Settings(const std::vector<SettingSpec>& specs);  // every default

  double number(std::string_view key) const;
  long integer(std::string_view key) const;  // count, contact
  bool flag(std::string_view key) const;
  const std::string& word(std::string_view key) const;
  const std::vector<int>& indices(std::string_view key) const;

  // Replaces a declared key's value (the loader, and tests that set one directly).
  void set(std::string_view key, SettingValue value);
  const std::vector<std::pair<std::string, SettingValue>>& values() const { return values_; }

 private:
  const SettingValue& at(std::string_view key) const;
  std::vector<std::pair<std::string, SettingValue>> values_;
};

}  // namespace impactsim
