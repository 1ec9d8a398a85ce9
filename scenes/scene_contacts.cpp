#include "scenes/scene_contacts.hpp"

#include "collision/auto_contacts.hpp"
#include "collision/mesh.hpp"
#include "numerics/short_number.hpp"
#include "scenes/scene_keys.hpp"

#include <algorithm>
#include <set>

namespace impactsim {
namespace {

struct PairMaterial {
  int body1, body2;  // -1 is the world
  double mu, e;
};

struct Materials {
  double mu = 0.0, e = 0.0;
  std::vector<PairMaterial> pairs;
};

int body_named(const Field& f, const Model& model) {
  const std::string name = f.text();
  if (name == "world") return -1;
  const int i = model.body_index(name);
  if (i < 0) f.fail("unknown body '" + name + "'");
  return i;
}

double restitution(const Field& f) {
  const double e = f.non_negative();
  if (e > 1) f.fail("restitution must be between 0 and 1, found " + short_number(e));
  return e;
}

Materials read_materials(const Field& f, const Model& model) {
  Materials m;
  if (!f.defined()) return m;
  expect_section(f, "materials");
  if (f.has("mu")) m.mu = f.child("mu").non_negative();
  if (f.has("e")) m.e = restitution(f.child("e"));
  if (!f.has("pairs")) return m;
  for (const Field& p : f.child("pairs").elements()) {
    expect_section(p, "materials.pairs");
    const std::vector<Field> b = p.require("bodies").elements();
    if (b.size() != 2) p.child("bodies").fail("expected two body names");
    m.pairs.push_back({body_named(b[0], model), body_named(b[1], model),
                       p.has("mu") ? p.child("mu").non_negative() : m.mu, p.has("e") ? restitution(p.child("e")) : m.e});
  }
  return m;
}

int geometry_named(const Field& f, const std::vector<Geometry>& geometries) {
  const std::string name = f.text();
  for (size_t i = 0; i < geometries.size(); ++i)
    if (geometries[i].name == name) return static_cast<int>(i);
  f.fail("unknown shape '" + name + "' (shapes are named by their `name` key, or <body>_<index>)");
}

// The point features of a shape on body g.body (collision/auto_contacts.hpp), named `name` and its
// feature labels: sphere and disk centres, capsule ends, box corners, polyhedron vertices.
std::vector<ContactDef> shape_features(const Field& f, const Geometry& g, bool planar, const std::string& name) {
  const std::vector<PointFeature> features = point_features(g.shape, planar);
  if (features.empty()) {
    switch (g.shape.type) {
      case ShapeType::halfspace: f.fail("a halfspace has no contact points; put it on the `with` side");
      case ShapeType::cone: f.fail("a cone's contacts are not point features; use `collide`, or give contact points");
      default: f.fail("a cylinder's contacts in 3-D are not point features; give contact points instead");
    }
  }
  std::vector<ContactDef> out;
  for (const PointFeature& k : features) {
    ContactDef c;
    c.name = k.label.empty() ? name : name + "." + k.label;
    c.body_a = g.body;
    c.point = k.point;
    c.radius = k.radius;
    out.push_back(c);
  }
  return out;
}

void apply_material(ContactDef& c, int body_b, const Materials& m) {
  c.mu = m.mu;
  c.e = m.e;
  for (const PairMaterial& p : m.pairs)
    if ((p.body1 == c.body_a && p.body2 == body_b) || (p.body2 == c.body_a && p.body1 == body_b)) {
      c.mu = p.mu;
      c.e = p.e;
    }
}

// Bodies joined by a joint that constrains them (not free or planar) do not collide under `all`:
// their shapes touch by design at the joint.
bool jointed(const Model& model, int b1, int b2) {
  for (auto [child, parent] : {std::pair{b1, b2}, std::pair{b2, b1}}) {
    if (child < 0 || model.bodies[child].parent != parent) continue;
    const JointType t = model.bodies[child].joint.type;
    if (t != JointType::free && t != JointType::planar) return true;
  }
  return false;
}

std::vector<int> shapes_of(const std::vector<Geometry>& geometries, int body) {
  std::vector<int> out;
  for (size_t g = 0; g < geometries.size(); ++g)
    if (geometries[g].body == body) out.push_back(static_cast<int>(g));
  return out;
}

// Every shape of b1 against every shape of b2, with materials; `f` locates errors.
void add_body_pair(const Field& f, int b1, int b2, const Materials& materials, const std::vector<Geometry>& geometries,
                   bool planar, std::vector<ContactDef>& out) {
  for (int g1 : shapes_of(geometries, b1))
    for (int g2 : shapes_of(geometries, b2)) {
      std::vector<ContactDef> defs;
      try {
        defs = pair_contacts(geometries, g1, g2, planar);
      } catch (const std::invalid_argument& e) {
        f.fail(e.what());
      }
      for (ContactDef& c : defs) {
        apply_material(c, geometries[c.geometry_b].body, materials);
        if (f.is_map() && f.has("mu")) c.mu = f.child("mu").non_negative();
        if (f.is_map() && f.has("e")) c.e = restitution(f.child("e"));
        out.push_back(std::move(c));
      }
    }
}

// `collide: all`, or a list of {bodies: [a, b], mu, e}: the automatic contacts of collision/auto_contacts.hpp.
std::vector<ContactDef> read_collide(const Field& f, const Materials& materials, const Model& model,
                                     const std::vector<Geometry>& geometries) {
  std::vector<ContactDef> out;
  if (!f.defined()) return out;
  const int n = static_cast<int>(model.bodies.size());
  if (!f.is_sequence()) {
    if (f.is_map() || f.text() != "all") f.fail("expected `all` or a list of {bodies: [a, b]} entries");
    for (int b1 = -1; b1 < n; ++b1)
      for (int b2 = b1 + 1; b2 < n; ++b2)
        if (!jointed(model, b1, b2)) add_body_pair(f, b1, b2, materials, geometries, model.planar, out);
    return out;
  }
  std::set<std::pair<int, int>> seen;
  for (const Field& p : f.elements()) {
    expect_section(p, "collide");
    const std::vector<Field> b = p.require("bodies").elements();
    if (b.size() != 2) p.child("bodies").fail("expected two body names");
    const int b1 = body_named(b[0], model), b2 = body_named(b[1], model);
    if (b1 == b2) p.child("bodies").fail("a body does not collide with itself");
    for (int body : {b1, b2})
      if (shapes_of(geometries, body).empty())
        p.child("bodies").fail("body '" + (body < 0 ? std::string("world") : model.bodies[body].name) + "' has no shapes");
    if (!seen.insert(std::minmax(b1, b2)).second) p.child("bodies").fail("this pair is listed twice");
    add_body_pair(p, b1, b2, materials, geometries, model.planar, out);
  }
  return out;
}

}  // namespace

std::vector<ContactDef> read_contacts(const Field& list, const Field& materials_field, const Field& collide,
                                      const Model& model, const std::vector<Geometry>& geometries) {
  const Materials materials = read_materials(materials_field, model);
  std::vector<ContactDef> out;
  std::set<std::string> names;
  if (!list.defined()) {
    out = read_collide(collide, materials, model, geometries);
    for (const ContactDef& c : out)
      if (!names.insert(c.name).second) collide.fail("two contacts are named '" + c.name + "'; name the shapes apart");
    return out;
  }
  std::vector<std::pair<size_t, size_t>> ranges;  // per entry of the list: its first contact and count
  for (const Field& f : list.elements()) {
    expect_section(f, "contacts");
    const std::string name = f.require("name").text();
    if (!valid_name(name, ".+-", true))
      f.child("name").fail(name_rule("contact names use letters, digits and '_ . + -' (they name columns of runs.csv)"));
    const int with = geometry_named(f.require("with"), geometries);
    const int body_b = geometries[with].body;
    std::vector<ContactDef> defs;
    if (f.has("shape")) {
      if (f.has("point") || f.has("body") || f.has("radius"))
        f.child("shape").fail("give either shape, or body with point (and radius), not both");
      const Geometry& g = geometries[geometry_named(f.child("shape"), geometries)];
      defs = shape_features(f.child("shape"), g, model.planar, name);
    } else {
      ContactDef c;
      c.name = name;
      c.body_a = body_named(f.require("body"), model);
      c.point = f.require("point").position();
      c.radius = 0.0;
      if (f.has("radius")) {
        f.child("radius").non_negative();
        c.radius = f.child("radius").coordinate();
      }
      defs.push_back(c);
    }
    ranges.emplace_back(out.size(), defs.size());
    for (ContactDef& c : defs) {
      if (c.body_a == body_b) f.child("with").fail("a contact needs two different bodies");
      c.geometry_b = with;
      apply_material(c, body_b, materials);
      if (f.has("mu")) c.mu = f.child("mu").non_negative();
      if (f.has("e")) c.e = restitution(f.child("e"));
      if (!names.insert(c.name).second) f.child("name").fail("duplicate contact name '" + c.name + "'");
      out.push_back(c);
    }
  }
  // only_ahead_of names another contact, possibly one listed later.
  const std::vector<Field> fields = list.elements();
  for (size_t k = 0; k < fields.size(); ++k) {
    if (!fields[k].has("only_ahead_of")) continue;
    const Field o = fields[k].child("only_ahead_of");
    if (ranges[k].second != 1 || fields[k].has("shape"))
      o.fail("only_ahead_of goes with a single point contact (body and point)");
    const std::string other = o.text();
    const auto it = std::find_if(out.begin(), out.end(), [&](const ContactDef& c) { return c.name == other; });
    if (it == out.end()) o.fail("unknown contact '" + other + "'");
    if (static_cast<size_t>(it - out.begin()) == ranges[k].first) o.fail("a contact cannot be ahead of itself");
    out[ranges[k].first].only_ahead_of = static_cast<int>(it - out.begin());
  }
  for (ContactDef& c : read_collide(collide, materials, model, geometries)) {
    if (!names.insert(c.name).second)
      collide.fail("contact '" + c.name + "' is also listed in `contacts`; name the shapes or contacts apart");
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace impactsim
