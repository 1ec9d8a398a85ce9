#include "scenes/scene_batch_sections.hpp"

#include <set>

#include "scenes/scene_bodies.hpp"
#include "scenes/scene_keys.hpp"

namespace impactsim {
namespace {

bool angle_coordinate(const Model& model, const std::string& name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos) return false;
  const int body = model.body_index(name.substr(0, dot));
  return body >= 0 && is_angle(model.bodies[body].joint.type, std::string_view(name).substr(dot + 1));
}

// {uniform: [a, b]} or {normal: [mean, sd]} (times `scale`, for degrees), checked: an ordered range,
// a non-negative sd, draws that stay finite. The entries of both randomize sections.
void read_distribution(const Field& spec, double scale, RandomLaw& law, double& a, double& b) {
  const bool uniform = spec.has("uniform"), normal = spec.has("normal");
  if (uniform == normal) spec.fail("give exactly one of uniform: [a, b] or normal: [mean, sd]");
  const Field range = spec.child(uniform ? "uniform" : "normal");
  const std::vector<double> ab = range.numbers();
  if (ab.size() != 2) range.fail("expected two numbers");
  law = uniform ? RandomLaw::uniform : RandomLaw::normal;
  a = ab[0] * scale;
  b = ab[1] * scale;
  if (uniform && a > b) range.fail("the range's lower end is above its upper end");
  const double width = uniform ? b - a : std::abs(a) + 8 * b;  // a normal draw stays within 8 sd
  if (!std::isfinite(width)) range.fail("the range is too wide for its draws to be finite numbers");
  if (normal && b < 0) range.fail("the standard deviation must not be negative");
}

// Where a field is, as a SceneError (for keeping its line and column).
SceneError located(const Field& f) {
  try {
    f.fail("");
  } catch (const SceneError& e) {
    return e;
  }
}

// Which fixed column of runs.csv an outcome name would repeat ("" if none).
std::string runs_csv_column_clash(const std::string& name, const std::vector<ContactDef>& contacts) {
  for (const char* fixed : {"run", "seed", "status", "reason", "t_final", "impacts", "events", "t_rest", "message"})
    if (name == fixed) return "a column runs.csv always has";
  if (name.starts_with("final.") || name.starts_with("init.") || name.starts_with("param."))
    return "named like the final.*, init.* and param.* columns of runs.csv";
  for (const ContactDef& c : contacts)
    if (name == c.name + ".closed") return "the column runs.csv has for contact '" + c.name + "'";
  return "";
}

}  // namespace

// randomize: {<body>.<coordinate>[_deg]: {uniform: [a, b]} or {normal: [mean, sd]}, ...}
std::vector<RandomCoordinate> read_randomize(const Field& f, const Model& model) {
  std::vector<RandomCoordinate> out;
  if (!f.defined()) return out;
  if (!f.is_map()) f.fail("expected a map from coordinate names to {uniform: [a, b]} or {normal: [mean, sd]}");
  std::vector<std::string> allowed;
  for (const auto& names : {model.q_names, model.v_names})
    for (const auto& n : names) {
      allowed.push_back(n);
      if (angle_coordinate(model, n)) allowed.push_back(n + "_deg");
    }
  f.expect_map(allowed);
  for (const std::string& key : f.keys()) {
    const Field spec = f.child(key);
    expect_section(spec, "randomize.<coordinate>");
    RandomCoordinate r;
    const bool deg = key.size() > 4 && key.ends_with("_deg");
    r.name = deg ? key.substr(0, key.size() - 4) : key;
    if (deg && f.has(r.name)) spec.fail("give " + r.name + " or " + key + ", not both");
    const auto qi = std::find(model.q_names.begin(), model.q_names.end(), r.name);
    const auto vi = std::find(model.v_names.begin(), model.v_names.end(), r.name);
    r.velocity = qi == model.q_names.end();
    r.index = static_cast<int>(r.velocity ? vi - model.v_names.begin() : qi - model.q_names.begin());
    const std::string coordinate = r.name.substr(r.name.find('.') + 1);
    if (coordinate == "qw" || coordinate == "qx" || coordinate == "qy" || coordinate == "qz")
      spec.fail("quaternion components cannot be randomized one by one");
    read_distribution(spec, deg ? kDeg : 1.0, r.law, r.a, r.b);
    out.push_back(r);
  }
  return out;
}

// randomize_keys: {<scene key>: {uniform: [a, b]} or {normal: [mean, sd]}, ...}. Whether each key
// makes a valid scene over its range is checked by load_scene_text once the scene is built.
std::vector<RandomParameter> read_randomize_keys(const Field& f) {
  std::vector<RandomParameter> out;
  if (!f.defined()) return out;
  if (!f.is_map()) f.fail("expected a map from scene keys (as --set names them) to {uniform: [a, b]} or {normal: [mean, sd]}");
  for (const std::string& key : f.keys()) {
    const Field spec = f.child(key);
    try {
      parse_override(key + "=0");
    } catch (const SceneError& e) {
      spec.fail("'" + key + "' is not a scene key: " + e.message());
    }
    if (key.starts_with("randomize")) spec.fail("the randomize sections cannot be drawn themselves");
    expect_section(spec, "randomize_keys.<key>");
    RandomParameter p;
    p.key = key;
    read_distribution(spec, 1.0, p.law, p.a, p.b);
    const SceneError where = located(spec);
    p.line = where.line();
    p.column = where.column();
    out.push_back(p);
  }
  return out;
}

// outcomes: [{name: N, final: <body>.<coordinate>[_deg]} | {name: N, closed: <contact>} |
//            {name: N, impacts | lifts | first_lift: <contact>}, ...]
std::vector<OutcomeDef> read_outcomes(const Field& f, const Model& model, const std::vector<ContactDef>& contacts) {
  std::vector<OutcomeDef> out;
  if (!f.defined()) return out;
  for (const Field& e : f.elements()) {
    expect_section(e, "outcomes");
    OutcomeDef o;
    const Field name = e.require("name");
    o.name = name.text();
    if (!valid_name(o.name, "."))
      name.fail(name_rule("outcome names use letters, digits, '_' and '.' and do not start with a digit (they name a "
                          "column of runs.csv)"));
    if (const std::string clash = runs_csv_column_clash(o.name, contacts); !clash.empty())
      name.fail("'" + o.name + "' is " + clash + "; choose another outcome name");
    for (const OutcomeDef& other : out)
      if (other.name == o.name) name.fail("duplicate outcome name '" + o.name + "'");
    static const std::pair<const char*, OutcomeDef::Kind> kContactKinds[] = {
        {"closed", OutcomeDef::Kind::closed}, {"impacts", OutcomeDef::Kind::impacts},
        {"lifts", OutcomeDef::Kind::lifts}, {"first_lift", OutcomeDef::Kind::first_lift}};
    int given = e.has("final");
    for (const auto& [key, kind] : kContactKinds) given += e.has(key);
    if (given != 1)
      e.fail("give exactly one of final: <body>.<coordinate>, or closed, impacts, lifts or first_lift: <contact>");
    if (e.has("final")) {
      const Field c = e.child("final");
      std::string key = c.text();
      if (key.size() > 4 && key.ends_with("_deg")) {
        key = key.substr(0, key.size() - 4);
        if (!angle_coordinate(model, key)) c.fail("'" + key + "' is not an angle: _deg is for angles only");
        o.scale = 1.0 / kDeg;
      }
      const auto qi = std::find(model.q_names.begin(), model.q_names.end(), key);
      const auto vi = std::find(model.v_names.begin(), model.v_names.end(), key);
      if (qi == model.q_names.end() && vi == model.v_names.end())
        c.fail("unknown coordinate '" + key + "' (coordinates are <body>.<name> as in trajectory.csv)");
      o.velocity = qi == model.q_names.end();
      o.index = static_cast<int>(o.velocity ? vi - model.v_names.begin() : qi - model.q_names.begin());
    } else {
      const auto* entry = std::find_if(std::begin(kContactKinds), std::end(kContactKinds),
                                       [&](const auto& k) { return e.has(k.first); });
      o.kind = entry->second;
      const Field c = e.child(entry->first);
      const std::string contact = c.text();
      const auto it = std::find_if(contacts.begin(), contacts.end(), [&](const ContactDef& d) { return d.name == contact; });
      if (it == contacts.end()) c.fail("unknown contact '" + contact + "'");
      o.index = static_cast<int>(it - contacts.begin());
    }
    out.push_back(o);
  }
  return out;
}

}  // namespace impactsim
