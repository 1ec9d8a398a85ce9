// Scene files -> Scene. Every check that can fail names the file, line, column and key path.
#include <algorithm>
#include <charconv>
#include <cctype>
#include <cmath>
#include <numbers>
#include <set>
#include <string_view>

#include <Eigen/Eigenvalues>

#include "core/dynamics.hpp"
#include "core/integrators.hpp"
#include "core/joint.hpp"
#include "numerics/short_number.hpp"
#include "impact/laws.hpp"
#include "scenes/scene.hpp"
#include "scenes/scene_integrators.hpp"
#include "scenes/scene_contacts.hpp"
#include "scenes/scene_keys.hpp"
#include "scenes/scene_settings.hpp"
#include "scenes/scene_meshes.hpp"
#include "scenes/scene_overrides.hpp"
#include "scenes/scene_urdf.hpp"
#include "scenes/sha256.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

// Roll-pitch-yaw in degrees, applied about fixed x, then y, then z: R = Rz(yaw) Ry(pitch) Rx(roll).
Mat3 rpy_rotation(const Vec3& rpy_deg) {
  const Vec3 a = rpy_deg * kDeg;
  return (Eigen::AngleAxisd(a.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(a.y(), Vec3::UnitY()) *
          Eigen::AngleAxisd(a.x(), Vec3::UnitX()))
      .toRotationMatrix();
}

Mat3 rotation_of(const Field& f) {
  return f.has("rpy_deg") ? rpy_rotation(f.child("rpy_deg").vec3()) : Mat3::Identity();
}

Vec3 unit_vector(const Field& f) {
  const Vec3 a = f.vec3();
  if (a.norm() < 1e-12) f.fail("must be a non-zero vector");
  return a.normalized();
}

// Bounds of the integer keys: counts held as long, and seeds (YAML integers are read through
// double: whole numbers up to 9e15).
constexpr long kMaxCount = 1'000'000'000'000'000;
constexpr long kMaxSeed = 9'000'000'000'000'000;

Shape read_shape(const Field& f, bool static_body, const std::string& scene_file) {
  if (!f.is_map()) f.fail("expected a map describing a shape (type, and its dimensions)");
  const Field type = f.require("type");
  const std::string t = type.text();
  Shape s;
  if (t == "box") {
    s.type = ShapeType::box;
    s.size = f.require("size").vec3();
    if ((s.size.array() <= 0).any()) f.child("size").fail("box edge lengths must be positive");
  } else if (t == "sphere") {
    s.type = ShapeType::sphere;
    s.radius = f.require("radius").positive();
  } else if (t == "cylinder" || t == "capsule" || t == "cone") {
    s.type = t == "cylinder" ? ShapeType::cylinder : t == "capsule" ? ShapeType::capsule : ShapeType::cone;
    s.radius = f.require("radius").positive();
    s.length = t == "capsule" ? f.require("length").non_negative() : f.require("length").positive();
  } else if (t == "halfspace") {
    if (!static_body) f.fail("a halfspace is infinite and may only be part of the world (world.shapes)");
    s.type = ShapeType::halfspace;
    s.normal = unit_vector(f.require("normal"));
    s.offset = f.number_or("offset", 0.0);
  } else if (t == "convex" || t == "mesh") {
    expect_section(f, "shapes", t);  // before reading a file a misspelt key would make irrelevant
    s.type = ShapeType::convex;
    s.hull = read_hull(f, t, scene_file);
    if (t == "mesh") s.file = path_beside(f.child("file").text(), scene_file);
  } else {
    type.fail("unknown shape type '" + t + "' (expected box, sphere, cylinder, capsule, cone, halfspace, convex or mesh)");
  }
  expect_section(f, "shapes", t);
  s.position = f.vec3_or("position", Vec3::Zero());
  s.rotation = rotation_of(f);
  return s;
}

std::vector<Geometry> read_shapes(const Field& list, int body, const std::string& owner, bool static_body,
                                  const std::string& scene_file) {
  std::vector<Geometry> out;
  for (const Field& f : list.elements()) {
    Geometry g;
    g.body = body;
    g.shape = read_shape(f, static_body, scene_file);
    g.name = f.has("name") ? f.child("name").text() : owner + "_" + std::to_string(out.size());
    if (f.has("name") && !valid_name(g.name, ".-", true))
      f.child("name").fail(name_rule("shape names use letters, digits, '_', '.' and '-'"));
    out.push_back(g);
  }
  return out;
}

Joint read_joint(const Field& f) {
  const Field type = f.require("type");
  const std::string t = type.text();
  Joint j;
  if (t == "planar") j.type = JointType::planar;
  else if (t == "free") j.type = JointType::free;
  else if (t == "revolute") j.type = JointType::revolute;
  else if (t == "prismatic") j.type = JointType::prismatic;
  else if (t == "fixed") j.type = JointType::fixed;
  else type.fail("unknown joint type '" + t + "' (expected planar, free, revolute, prismatic or fixed)");
  const bool has_axis = joint_has_axis(j.type);
  expect_section(f, "bodies.joint", t);
  j.origin = f.vec3_or("origin", Vec3::Zero());
  j.rotation = rotation_of(f);
  if (has_axis)
    j.axis = f.has("axis") ? unit_vector(f.child("axis"))
                           : (j.type == JointType::revolute ? Vec3::UnitZ() : Vec3::UnitX());
  if (has_axis && f.has("damping")) j.damping = f.child("damping").non_negative();
  return j;
}

Mat3 read_inertia(const Field& f) {
  const std::vector<double> x = f.numbers();
  Mat3 I;
  if (x.size() == 3) I = Vec3(x[0], x[1], x[2]).asDiagonal();
  else if (x.size() == 6) I << x[0], x[3], x[4], x[3], x[1], x[5], x[4], x[5], x[2];
  else f.fail("expected [Ixx, Iyy, Izz] or [Ixx, Iyy, Izz, Ixy, Ixz, Iyz], found " + std::to_string(x.size()) + " numbers");
  if (const std::string problem = inertia_problem(I); !problem.empty()) f.fail(problem);
  return I;
}

// Mass properties: explicit (mass + inertia), from shapes at a density, or from shapes scaled to a mass.
void read_mass(const Field& f, const std::vector<Geometry>& shapes, Body& b) {
  std::vector<MassProperties> parts;
  double volume = 0.0;
  for (const Geometry& g : shapes) {
    parts.push_back(shape_mass_properties(g.shape, 1.0));
    volume += shape_volume(g.shape);
  }
  if (f.has("density")) {
    if (f.has("mass")) f.child("density").fail("give either mass or density, not both");
    if (f.has("inertia") || f.has("com"))
      f.child("density").fail("with density, com and inertia are computed from the shapes; remove them");
    if (shapes.empty()) f.child("density").fail("density needs at least one shape to compute mass from");
    const double rho = f.child("density").positive();
    const MassProperties p = combine_mass_properties(parts);
    b.mass = rho * p.mass;
    b.com = p.com;
    b.inertia = rho * p.inertia;
    return;
  }
  if (!f.has("mass")) f.fail("missing required key 'mass' (or 'density' with shapes)");
  b.mass = f.child("mass").non_negative();
  if (f.has("inertia")) {
    b.inertia = read_inertia(f.child("inertia"));
    b.com = f.vec3_or("com", Vec3::Zero());
    return;
  }
  if (shapes.empty())
    f.fail("missing required key 'inertia' (a point mass has inertia: [0, 0, 0]; or give shapes to compute it)");
  if (f.has("com")) f.child("com").fail("com is computed from the shapes unless inertia is given too");
  const MassProperties p = combine_mass_properties(parts);
  b.com = p.com;
  b.inertia = p.inertia * (b.mass / volume);
}

bool is_angle(JointType type, std::string_view coordinate) {
  if (type == JointType::free) return coordinate == "wx" || coordinate == "wy" || coordinate == "wz";
  return (type == JointType::planar || type == JointType::revolute) &&
         (coordinate == "theta" || coordinate == "omega");
}

// Initial coordinates by name ("theta", "vx", ...); angles may be given in degrees as <name>_deg.
void read_initial(const Field& f, const Body& b, State& state) {
  std::vector<std::string> allowed;
  auto names = joint_q_names(b.joint.type);
  const auto v_names = joint_v_names(b.joint.type);
  names.insert(names.end(), v_names.begin(), v_names.end());
  for (auto n : names) {
    allowed.emplace_back(n);
    if (is_angle(b.joint.type, n)) allowed.push_back(std::string(n) + "_deg");
  }
  if (b.joint.type == JointType::free) allowed.push_back("rpy_deg");
  if (allowed.empty()) f.fail("a fixed joint has no coordinates to set");
  f.expect_map(allowed);

  auto value_of = [&](std::string_view n, double& out) {
    const std::string name(n);
    const bool plain = f.has(name), deg = f.has(name + "_deg");
    if (plain && deg) f.child(name + "_deg").fail("give " + name + " or " + name + "_deg, not both");
    if (plain) out = f.child(name).number();
    if (deg) out = f.child(name + "_deg").number() * kDeg;
  };
  const auto q_names = joint_q_names(b.joint.type);
  for (size_t k = 0; k < q_names.size(); ++k) value_of(q_names[k], state.q[b.joint.q_index + k]);
  for (size_t k = 0; k < v_names.size(); ++k) value_of(v_names[k], state.v[b.joint.v_index + k]);
  if (b.joint.type != JointType::free) return;

  double* quat = state.q.data() + b.joint.q_index + 3;
  const int given = f.has("qw") + f.has("qx") + f.has("qy") + f.has("qz");
  if (given > 0 && f.has("rpy_deg")) f.child("rpy_deg").fail("give the orientation as rpy_deg or as qw, qx, qy, qz, not both");
  if (given > 0 && given < 4) f.fail("give all four quaternion components qw, qx, qy, qz");
  if (f.has("rpy_deg")) {
    const Quat r(rpy_rotation(f.child("rpy_deg").vec3()));
    quat[0] = r.w();
    quat[1] = r.x();
    quat[2] = r.y();
    quat[3] = r.z();
  }
  if (Eigen::Map<Eigen::Vector4d>(quat).norm() < 1e-9) f.child("qw").fail("the quaternion is zero; it must have unit length");
  joint_normalize(b.joint, state.q.data() + b.joint.q_index);
}

// The body of the robot's link `name`, a key of map f (robot.initial, robot.damping, robot.mass...);
// fails at that key, with `hint` after the message, when the robot (the first robot_bodies bodies)
// has no such link.
int robot_link(const Field& f, const std::string& name, const Model& model, size_t robot_bodies, const std::string& hint) {
  const int body = model.body_index(name);
  if (body < 0 || static_cast<size_t>(body) >= robot_bodies) f.child(name).fail("'" + name + "' is not a link of the robot" + hint);
  return body;
}

// set(body, name, value) for each entry of the robot's map f (link name -> value), `what` naming the
// values where f is not a map (robot.damping, robot.mass...).
template <class Set>
void for_each_robot_link(const Field& f, const std::string& what, Model& model, size_t robot_bodies, Set&& set) {
  if (!f.is_map()) f.fail("expected a map from link names to " + what);
  for (const std::string& name : f.keys()) set(model.bodies[robot_link(f, name, model, robot_bodies, "")], name, f.child(name));
}

// The robot's `initial`: a map from link (body) name to that body's initial coordinates.
void read_robot_initial(const Field& f, const Model& model, size_t robot_bodies, State& state) {
  if (!f.is_map()) f.fail("expected a map from link names to their joints' initial coordinates");
  for (const std::string& name : f.keys()) {
    const int body = robot_link(f, name, model, robot_bodies, " (give a scene body's initial coordinates in its entry)");
    read_initial(f.child(name), model.bodies[body], state);
  }
}

// robot.damping: link name -> the damping of the joint that moves the link, replacing the URDF's
// <dynamics damping> (so --set and sweeps reach it).
void read_robot_damping(const Field& f, Model& model, size_t robot_bodies) {
  for_each_robot_link(f, "the damping of their joints", model, robot_bodies, [](Body& body, const std::string& name, const Field& value) {
    Joint& joint = body.joint;
    if (!joint_has_axis(joint.type))
      value.fail("the joint that moves '" + name + "' is " + std::string(joint_type_name(joint.type)) +
                 "; damping applies to revolute and prismatic joints");
    joint.damping = value.non_negative();
  });
}

// robot.mass: link name -> the link's mass [kg], replacing the URDF's <inertial><mass>; its rotational
// inertia about the centre of mass scales by the same factor (the same shape, denser or lighter),
// and the centre of mass stays. So --set, sweeps and randomize_keys reach a URDF link's mass. A
// link that robot.inertia (`inertia`) gives an inertia is not scaled: read_robot_inertia sets it.
void read_robot_mass(const Field& f, const Field& inertia, Model& model, size_t robot_bodies) {
  for_each_robot_link(f, "their masses", model, robot_bodies, [&](Body& body, const std::string& name, const Field& value) {
    const double mass = value.positive();
    if (inertia.is_map() && inertia.has(name)) {
      body.mass = mass;
      return;
    }
    if (!(body.mass > 0))
      value.fail("'" + name + "' is massless in the URDF (no <inertial>): its inertia cannot be scaled; "
                 "give the link an <inertial> there, or its robot.inertia");
    body.inertia *= mass / body.mass;
    body.mass = mass;
  });
}

// robot.com: link name -> the link's centre of mass in its frame [m], replacing the URDF's
// <inertial><origin xyz>; the inertia about the centre stays.
void read_robot_com(const Field& f, Model& model, size_t robot_bodies) {
  for_each_robot_link(f, "their centres of mass [x, y, z]", model, robot_bodies,
                      [](Body& body, const std::string&, const Field& value) { body.com = value.vec3(); });
}

// robot.inertia: link name -> the link's inertia about its centre of mass in its axes [kg m^2],
// replacing the URDF's (as a body's `inertia`); taken as given where robot.mass changes the mass.
void read_robot_inertia(const Field& f, Model& model, size_t robot_bodies) {
  for_each_robot_link(f, "their inertias", model, robot_bodies,
                      [](Body& body, const std::string&, const Field& value) { body.inertia = read_inertia(value); });
}

// robot.origin: link name -> the origin of the joint that moves the link, in the parent link's frame
// [m], replacing the joint's <origin xyz> (its rpy stays). So --set and sweeps reach a leg's length.
void read_robot_origin(const Field& f, Model& model, size_t robot_bodies) {
  for_each_robot_link(f, "their joints' origins [x, y, z]", model, robot_bodies,
                      [](Body& body, const std::string&, const Field& value) { body.joint.origin = value.vec3(); });
}

ContactSettings read_contact_settings(const Field& f) {
  ContactSettings c;
  if (!f.defined()) return c;
  expect_section(f, "simulation.contact");
  if (f.has("broadphase_margin")) c.broadphase_margin = f.child("broadphase_margin").non_negative();
  if (f.has("broadphase_horizon")) c.broadphase_horizon = f.child("broadphase_horizon").non_negative();
  if (f.has("distance_tolerance")) c.distance_tolerance = f.child("distance_tolerance").positive();
  if (f.has("velocity_tolerance")) c.velocity_tolerance = f.child("velocity_tolerance").positive();
  if (f.has("baumgarte")) c.baumgarte = f.child("baumgarte").non_negative();
  if (f.has("v_zeno")) c.v_zeno = f.child("v_zeno").non_negative();
  if (f.has("detect_rest")) c.detect_rest = f.child("detect_rest").boolean();
  if (f.has("max_events")) {
    c.max_events = f.child("max_events").integer_in(1, kMaxCount);
  }
  if (f.has("painleve_step")) c.painleve_step = f.child("painleve_step").non_negative();
  if (f.has("friction_directions")) {
    c.friction_directions = static_cast<int>(f.child("friction_directions").integer_in(3, 64));
  }
  return c;
}

void read_law(const Field& f, Scene& scene) {
  if (f.has("law")) {
    scene.law = f.child("law").text();
    if (!find_law(scene.law))
      f.child("law").fail("unknown impact law '" + scene.law + "' (known: " + law_names_text() + ")");
  }
  if (f.has("seed")) {
    scene.seed = static_cast<unsigned long long>(f.child("seed").integer_in(0, kMaxSeed));
  }
}

// Each registered law's section simulation.<law>, as its descriptor declares it.
LawSettings read_law_settings(const Field& f, const std::vector<ContactDef>& contacts) {
  LawSettings out;
  for (const LawDescriptor* law : law_registry()) {
    if (law->settings.empty()) continue;
    const Field section = f.child(law->name);
    Settings& settings = out.of(law->name);
    settings = read_settings(section, law->settings, contacts);
    if (law->check)
      if (const SettingProblem problem = law->check(settings)) fail_at(section, problem);
  }
  return out;
}

SimulationSettings read_simulation(const Field& f) {
  expect_section(f, "simulation");
  SimulationSettings s;
  s.t_end = f.require("t_end").positive();
  if (f.has("output_interval")) s.output_interval = f.child("output_interval").positive();
  if (f.has("rtol")) s.ode.rtol = f.child("rtol").positive();
  if (s.ode.rtol >= 1) f.child("rtol").fail("must be below 1");
  if (s.ode.rtol < 1e-14) f.child("rtol").fail("must be at least 1e-14 (double precision cannot do better)");
  if (f.has("atol")) s.ode.atol = f.child("atol").positive();
  if (f.has("max_step")) s.ode.max_step = f.child("max_step").non_negative();
  if (f.has("initial_step")) s.ode.initial_step = f.child("initial_step").positive();
  if (f.has("max_steps")) {
    s.max_steps = f.child("max_steps").integer_in(1, kMaxCount);
  }
  if (f.has("stall_window")) {
    s.stall_window = f.child("stall_window").integer_in(0, kMaxCount);
  }
  if (f.has("energy_check")) s.energy_check = f.child("energy_check").boolean();
  return s;
}

OutputSettings read_output(const Field& f) {
  expect_section(f, "output");
  OutputSettings o;
  if (f.has("directory")) o.directory = f.child("directory").text();
  if (f.has("precision")) {
    o.precision = static_cast<int>(f.child("precision").integer_in(3, 17));
  }
  return o;
}

// Whether model coordinate "<body>.<coordinate>" is an angle or an angular velocity (may take _deg).
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

// Where a field is, as a SceneError (for keeping its line and column).
SceneError located(const Field& f) {
  try {
    f.fail("");
  } catch (const SceneError& e) {
    return e;
  }
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

std::string stem_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t dot = base.find_last_of('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

// What no run of the scene could survive, refused before any run: an initial state with infinite
// energy, a contact that starts deep inside another body, a run too long for its output or steps.
void check_run_is_possible(const Field& root, const Scene& scene) {
  const System& system = scene.system;
  const auto [kinetic, potential] = energies(system.model, scene.initial.q, scene.initial.v);
  if (!std::isfinite(kinetic) || !std::isfinite(potential))
    root.child("bodies").fail("the initial state's energy is not a finite number (a mass, a velocity or gravity too large)");
  if (const std::optional<Penetration> p = initial_penetration(system, scene.initial.q))
    (root.has("contacts") ? root.child("contacts") : root.child("collide"))
        .fail("contact '" + system.contacts.contact(p->contact).name + "' starts " +
                                format_time(p->depth) + " m deep (more than " + format_time(kStartDepthTolerance) +
                                " simulation.contact.distance_tolerance); move the bodies apart");
  if (const std::string problem = budget_problem(system); !problem.empty()) {
    const Field simulation = root.child("simulation");
    const bool steps = problem.starts_with("t_end / h");
    const std::string& section = integrator_descriptor(system.integrator).section;
    (steps && simulation.child(section).has("h") ? simulation.child(section).child("h")
     : !steps && simulation.has("output_interval") ? simulation.child("output_interval")
                                                     : simulation.child("t_end"))
        .fail(problem);
  }
}

Scene build_scene(const YAML::Node& doc, const std::string& file) {
  const Field root(file, doc, "");
  expect_section(root, "");
  Scene scene;
  System& system = scene.system;
  scene.source = file;
  scene.name = root.has("name") ? root.child("name").text() : stem_of(file);
  if (!valid_name(scene.name, ".-", true) || scene.name == "." || scene.name == "..")
    (root.has("name") ? root.child("name") : root)
        .fail(name_rule("the scene's name (or its file's name) uses letters, digits, '_', '-' and '.' only (it names "
                        "the output directory)"));
  if (root.has("description")) scene.description = root.child("description").text();

  const Field world = root.child("world");
  if (world.defined()) expect_section(world, "world");
  std::vector<Geometry> geometries;
  if (world.has("shapes")) geometries = read_shapes(world.child("shapes"), -1, "world", true, file);

  Model& model = system.model;
  const Field robot = root.child("robot");
  if (robot.defined()) scene.robot = read_robot(robot, file, model, geometries);
  const size_t robot_bodies = model.bodies.size();
  const Field bodies = robot.defined() ? root.child("bodies") : root.require("bodies");
  const std::vector<Field> body_fields = bodies.defined() ? bodies.elements() : std::vector<Field>{};
  if (body_fields.empty() && robot_bodies == 0) bodies.fail("a scene needs at least one body");
  const Field& model_field = bodies.defined() ? bodies : robot;  // where problems of the whole model are reported
  for (const Field& f : body_fields) {
    expect_section(f, "bodies");
    Body b;
    const Field name = f.require("name");
    b.name = name.text();
    if (!valid_name(b.name)) name.fail(name_rule("body names use letters, digits and '_' and do not start with a digit"));
    if (b.name == "world") name.fail("'world' is reserved for the fixed world frame");
    if (model.body_index(b.name) >= 0) name.fail("duplicate body name '" + b.name + "'");
    const std::string parent = f.has("parent") ? f.child("parent").text() : "world";
    if (parent != "world") {
      b.parent = model.body_index(parent);
      if (b.parent < 0)
        f.child("parent").fail("unknown parent '" + parent + "' (a body's parent must be listed before it)");
    }
    b.joint = read_joint(f.require("joint"));
    const int index = static_cast<int>(model.bodies.size());
    std::vector<Geometry> shapes;
    if (f.has("shapes")) shapes = read_shapes(f.child("shapes"), index, b.name, false, file);
    read_mass(f, shapes, b);
    model.bodies.push_back(b);
    geometries.insert(geometries.end(), shapes.begin(), shapes.end());
  }
  finalize_model(model);

  const bool planar_declared = world.has("planar") && world.child("planar").boolean();
  if (planar_declared && !model.planar)
    world.child("planar").fail("the scene is declared planar, but a joint moves out of the x-y plane "
                               "(planar scenes use planar joints, revolute joints about z and prismatic joints in the plane)");
  model.gravity = world.has("gravity") ? world.child("gravity").vec3()
                                       : (model.planar ? Vec3(0, -9.81, 0) : Vec3(0, 0, -9.81));

  scene.initial.q = neutral_configuration(model);
  scene.initial.v = Eigen::VectorXd::Zero(model.nv);
  for (size_t i = 0; i < body_fields.size(); ++i)
    if (body_fields[i].has("initial"))
      read_initial(body_fields[i].child("initial"), model.bodies[robot_bodies + i], scene.initial);
  if (robot.has("initial")) read_robot_initial(robot.child("initial"), model, robot_bodies, scene.initial);
  if (robot.has("damping")) read_robot_damping(robot.child("damping"), model, robot_bodies);
  if (robot.has("mass")) read_robot_mass(robot.child("mass"), robot.child("inertia"), model, robot_bodies);
  if (robot.has("com")) read_robot_com(robot.child("com"), model, robot_bodies);
  if (robot.has("inertia")) read_robot_inertia(robot.child("inertia"), model, robot_bodies);
  if (robot.has("origin")) read_robot_origin(robot.child("origin"), model, robot_bodies);

  if (model.nv == 0) model_field.fail("the scene has no degrees of freedom (every joint is fixed)");
  const MassMatrixCheck m = check_mass_matrix(model, scene.initial.q);
  if (m.conditioning < 1e-12)
    model_field.fail("the mass matrix is singular at the initial configuration: nothing has mass or inertia along '" +
                model.v_names[m.weakest] + "' (give the bodies this joint moves mass or inertia)");

  for (size_t i = 0; i < geometries.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (geometries[i].name == geometries[j].name)
        root.fail("two shapes are named '" + geometries[i].name + "'; shape names must be unique");
  scene.meshes = mesh_sources(geometries);
  std::vector<ContactDef> contacts = read_contacts(root.child("contacts"), root.child("materials"), root.child("collide"), model,
                                                   geometries);
  system.contacts = ContactModel(std::move(geometries), std::move(contacts), model.planar);
  system.pins = read_pins(root.child("constraints"), model, scene.initial.q);
  scene.randomize = read_randomize(root.child("randomize"), model);
  scene.randomize_keys = read_randomize_keys(root.child("randomize_keys"));
  scene.outcomes = read_outcomes(root.child("outcomes"), model, system.contacts.contacts());

  const Field simulation = root.require("simulation");
  system.simulation = read_simulation(simulation);
  system.contact = read_contact_settings(simulation.child("contact"));
  read_law(simulation, scene);
  scene.laws = read_law_settings(simulation, system.contacts.contacts());
  read_integrator(simulation, root.child("constraints"), system);
  if (root.has("output")) scene.output = read_output(root.child("output"));
  check_run_is_possible(root, scene);
  return scene;
}

}  // namespace

Scene load_scene(const std::string& path, const std::vector<SceneOverride>& overrides) {
  return load_scene_text(read_scene_file(path), path, overrides);
}

namespace {

Scene read_scene_text(const std::string& text, const std::string& name, const std::vector<SceneOverride>& overrides) {
  YAML::Node root = parse_yaml_text(text, name);
  apply_overrides(root, overrides);
  try {
    Scene scene = build_scene(root, name);
    scene.text_sha256 = sha256_hex(overridden_text(text, overrides));
    scene.overrides = overrides;
    return scene;
  } catch (const SceneError& e) {
    // A problem inside an override's value is the override's, not the file's (its nodes have no
    // place in the file). The last override of a key is the one in the document.
    for (auto o = overrides.rbegin(); o != overrides.rend(); ++o)
      if (e.key() == o->key || e.key().starts_with(o->key + ".") || e.key().starts_with(o->key + "["))
        throw SceneError("--set " + o->text(), 0, 0, e.key(), e.message());
    throw;
  }
}

// The scene with the parameters set. A problem is reported at the randomize_keys entry it comes
// from (the key named by the error, else `blame`, else the first), with the values drawn.
Scene with_parameters(const Scene& base, const std::vector<double>& values, int blame) {
  std::vector<SceneOverride> overrides = base.overrides;
  const std::vector<SceneOverride> drawn = parameter_overrides(base.randomize_keys, values);
  overrides.insert(overrides.end(), drawn.begin(), drawn.end());
  try {
    return read_scene_text(base.text, base.source, overrides);
  } catch (const SceneError& e) {
    size_t k = blame >= 0 ? static_cast<size_t>(blame) : 0;
    for (size_t i = 0; i < drawn.size(); ++i)
      if (e.file() == "--set " + drawn[i].text() || e.key() == drawn[i].key) k = i;
    const RandomParameter& p = base.randomize_keys[k];
    std::string values_text;
    for (const SceneOverride& o : drawn) values_text += (values_text.empty() ? "" : ", ") + o.key + " = " + o.value;
    const bool own = e.file() == "--set " + drawn[k].text();
    // Checking the scene (blame >= 0), every value is an end of its range or its mean.
    const bool uniform = p.law == RandomParameter::Law::uniform;
    const std::string what = blame < 0                             ? " (drawn)"
                             : !uniform                            ? " (the mean)"
                             : values[k] == p.b && p.a != p.b ? " (the range's upper end)"
                                                                   : " (the range's lower end)";
    throw SceneError(base.source, p.line, p.column, "randomize_keys." + p.key,
                     "with " + (blame >= 0 ? drawn[k].key + " = " + drawn[k].value : values_text) + what + ": " +
                         (own ? (e.key().empty() ? "" : e.key() + ": ") + e.message() : std::string(e.what())));
  }
}

}  // namespace

Scene load_scene_text(const std::string& text, const std::string& name, const std::vector<SceneOverride>& overrides) {
  Scene scene = read_scene_text(text, name, overrides);
  scene.text = text;
  // Each drawn key is tried at the ends of its uniform range (at the mean of a normal law), the
  // others at their first value, so a key the scene rejects is reported now, not in every run.
  const std::vector<RandomParameter>& keys = scene.randomize_keys;
  for (size_t k = 0; k < keys.size(); ++k) {
    std::vector<double> values;
    for (const RandomParameter& p : keys) values.push_back(p.a);
    with_parameters(scene, values, static_cast<int>(k));
    if (keys[k].law == RandomParameter::Law::uniform && keys[k].b != keys[k].a) {
      values[k] = keys[k].b;
      with_parameters(scene, values, static_cast<int>(k));
    }
  }
  return scene;
}

Scene scene_with_parameters(const Scene& base, const std::vector<double>& values) {
  Scene scene = with_parameters(base, values, -1);
  scene.text = base.text;
  return scene;
}

std::string scene_content_sha256(const Scene& scene) {
  if (scene.meshes.empty())
    return scene.robot.urdf.empty() ? scene.text_sha256 : sha256_hex(scene.text_sha256 + scene.robot.sha256);
  std::string all = scene.text_sha256 + scene.robot.sha256;
  for (const MeshSource& m : scene.meshes) all += m.sha256;
  return sha256_hex(all);
}

}  // namespace impactsim
