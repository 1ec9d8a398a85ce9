#include "scenes/scene_bodies.hpp"

#include <cmath>

#include "core/joint.hpp"
#include "scenes/scene_keys.hpp"
#include "scenes/scene_meshes.hpp"

namespace impactsim {
namespace {

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

// A length [m]: positive (or, where zero is allowed, not negative) and within kMaxCoordinate.
double length_of(const Field& f, bool zero_allowed = false) {
  if (zero_allowed) f.non_negative();
  else f.positive();
  return f.coordinate();
}

Shape read_shape(const Field& f, bool static_body, const std::string& scene_file) {
  if (!f.is_map()) f.fail("expected a map describing a shape (type, and its dimensions)");
  const Field type = f.require("type");
  const std::string t = type.text();
  Shape s;
  if (t == "box") {
    s.type = ShapeType::box;
    s.size = f.require("size").position();
    if ((s.size.array() <= 0).any()) f.child("size").fail("box edge lengths must be positive");
  } else if (t == "sphere") {
    s.type = ShapeType::sphere;
    s.radius = length_of(f.require("radius"));
  } else if (t == "cylinder" || t == "capsule" || t == "cone") {
    s.type = t == "cylinder" ? ShapeType::cylinder : t == "capsule" ? ShapeType::capsule : ShapeType::cone;
    s.radius = length_of(f.require("radius"));
    s.length = length_of(f.require("length"), t == "capsule");
  } else if (t == "halfspace") {
    if (!static_body) f.fail("a halfspace is infinite and may only be part of the world (world.shapes)");
    s.type = ShapeType::halfspace;
    s.normal = unit_vector(f.require("normal"));
    s.offset = f.has("offset") ? f.child("offset").coordinate() : 0.0;
  } else if (t == "convex" || t == "mesh") {
    expect_section(f, "shapes", t);  // before reading a file a misspelt key would make irrelevant
    s.type = ShapeType::convex;
    s.hull = read_hull(f, t, scene_file);
    if (t == "mesh") s.file = path_beside(f.child("file").text(), scene_file);
  } else {
    type.fail("unknown shape type '" + t + "' (expected box, sphere, cylinder, capsule, cone, halfspace, convex or mesh)");
  }
  expect_section(f, "shapes", t);
  s.position = f.has("position") ? f.child("position").position() : Vec3::Zero();
  s.rotation = rotation_of(f);
  return s;
}

}  // namespace

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
  j.origin = f.has("origin") ? f.child("origin").position() : Vec3::Zero();
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
    b.com = f.has("com") ? f.child("com").position() : Vec3::Zero();
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

  // position: a coordinate of q that is no angle (x, y, z, a slider's), within kMaxCoordinate.
  auto value_of = [&](std::string_view n, double& out, bool position) {
    const std::string name(n);
    const bool plain = f.has(name), deg = f.has(name + "_deg");
    if (plain && deg) f.child(name + "_deg").fail("give " + name + " or " + name + "_deg, not both");
    if (plain) out = position ? f.child(name).coordinate() : f.child(name).number();
    if (deg) out = f.child(name + "_deg").number() * kDeg;
  };
  const auto q_names = joint_q_names(b.joint.type);
  for (size_t k = 0; k < q_names.size(); ++k)
    value_of(q_names[k], state.q[b.joint.q_index + k], !is_angle(b.joint.type, q_names[k]));
  for (size_t k = 0; k < v_names.size(); ++k) value_of(v_names[k], state.v[b.joint.v_index + k], false);
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


std::vector<Field> read_bodies(const Field& bodies, const std::string& file, Model& model,
                               std::vector<Geometry>& geometries) {
  const std::vector<Field> fields = bodies.defined() ? bodies.elements() : std::vector<Field>{};
  for (const Field& f : fields) {
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
  return fields;
}

}  // namespace impactsim
