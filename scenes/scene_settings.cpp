#include "scenes/scene_settings.hpp"


namespace impactsim {
namespace {

SettingValue read_value(const Field& f, const SettingSpec& spec, const std::vector<ContactDef>& contacts) {
  switch (spec.kind) {
    case SettingKind::positive: return f.positive();
    case SettingKind::non_negative: return f.non_negative();
    case SettingKind::fraction: {
      const double x = f.non_negative();
      if (x > 1) f.fail("must be between 0 and 1");
      return x;
    }
    case SettingKind::count: return f.integer_in(1, kMaxSettingCount);
    case SettingKind::choice: return choose_word(f, spec.choices);
    case SettingKind::flag: return f.boolean();
    case SettingKind::contact: return long{contact_named(f, contacts)};
    case SettingKind::contacts: {
      std::vector<int> indices;
      for (const Field& e : f.elements()) indices.push_back(contact_named(e, contacts));
      return indices;
    }
  }
  f.fail("a setting of an unknown kind");
}

}  // namespace

int contact_named(const Field& f, const std::vector<ContactDef>& contacts) {
  const std::string name = f.text();
  for (size_t i = 0; i < contacts.size(); ++i)
    if (contacts[i].name == name) return static_cast<int>(i);
  f.fail("unknown contact '" + name + "'");
}

Settings read_settings(const Field& f, const std::vector<SettingSpec>& specs,
                       const std::vector<ContactDef>& contacts) {
  Settings settings(specs);
  if (!f.defined()) return settings;
  std::vector<std::string> keys;
  for (const SettingSpec& spec : specs)
    if (spec.in_scene) keys.push_back(spec.key);
  f.expect_map(keys);
  for (const SettingSpec& spec : specs)
    if (spec.in_scene && f.has(spec.key)) settings.set(spec.key, read_value(f.child(spec.key), spec, contacts));
  return settings;
}

void fail_at(const Field& f, const SettingProblem& problem) {
  if (problem.key.empty()) f.fail(problem.message);
  f.child(problem.key).fail(problem.message);
}

}  // namespace impactsim
