#include "scenes/scene_urdf.hpp"

#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include <console_bridge/console.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include "scenes/scene_keys.hpp"
#include "scenes/scene_meshes.hpp"
#include "scenes/sha256.hpp"

namespace impactsim {
namespace {

// The largest URDF read [bytes]: a robot description is far smaller; more is a mistake.
constexpr std::uintmax_t kMaxUrdfBytes = 16u << 20;

// The deepest nesting of elements read: a URDF nests a handful (robot, link, collision, geometry,
// box); the XML parser recurses once per level, so a file nested a hundred thousand deep would
// overflow its stack.
constexpr int kMaxUrdfDepth = 100;

// Where each <link> and <joint> element starts in the file, for located messages, and each joint's
// parent and child links.
struct UrdfLines {
  std::map<std::string, int> link, joint;
  std::vector<std::string> link_order;  // the links as the file lists them
  std::vector<std::array<std::string, 3>> joints;  // name, parent, child, in file order
};

// A located problem inside the URDF file.
class UrdfSource {
 public:
  UrdfSource(std::string path, UrdfLines lines) : path_(std::move(path)), lines_(std::move(lines)) {}
  [[noreturn]] void fail_link(const std::string& name, const std::string& message) const {
    fail(line_of(lines_.link, name), "link '" + name + "'", message);
  }
  [[noreturn]] void fail_joint(const std::string& name, const std::string& message) const {
    fail(line_of(lines_.joint, name), "joint '" + name + "'", message);
  }
  [[noreturn]] void fail(int line, const std::string& element, const std::string& message) const {
    throw SceneError(path_, line, line > 0 ? 1 : 0, element, message);
  }
  const std::string& path() const { return path_; }
  const UrdfLines& lines() const { return lines_; }

 private:
  static int line_of(const std::map<std::string, int>& lines, const std::string& name) {
    const auto it = lines.find(name);
    return it == lines.end() ? 0 : it->second;
  }
  std::string path_;
  UrdfLines lines_;
};

std::string read_text(const Field& file, const std::string& path) {
  if (const std::string problem = file_problem(path, "URDF", kMaxUrdfBytes); !problem.empty()) file.fail(problem);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) file.fail("cannot read '" + path + "'");
  return text.str();
}

// How deep the text's elements nest, counted without parsing: <a> opens, </a> closes, <a/>,
// comments, declarations and processing instructions neither. The line where kMaxUrdfDepth is
// passed, or 0.
int too_deep(const std::string& text) {
  int depth = 0, line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') ++line;
    if (text[i] != '<' || i + 1 >= text.size()) continue;
    const char next = text[i + 1];
    if (next == '!' || next == '?') continue;  // a comment's text has no tags that matter here
    if (next == '/') {
      --depth;
      continue;
    }
    const size_t end = text.find('>', i);
    if (end == std::string::npos) return 0;  // the parser reports the syntax
    if (text[end - 1] != '/' && ++depth > kMaxUrdfDepth) return line;
  }
  return 0;
}

// The joints' tree: a link that is the child of two joints closes a loop, and joints that lead
// back to where they started form a cycle; impactsim's bodies form a tree, so both are refused.
void check_tree(const std::string& path, const UrdfLines& lines) {
  std::map<std::string, std::string> joint_of, parent_of;  // by child link
  for (const auto& [joint, parent, child] : lines.joints) {
    if (const auto it = joint_of.find(child); it != joint_of.end())
      throw SceneError(path, lines.joint.at(joint), 1, "joint '" + joint + "'",
                       "link '" + child + "' is already the child of joint '" + it->second +
                           "': a closed loop, which impactsim's tree of bodies cannot take (leave one joint out)");
    joint_of[child] = joint;
    parent_of[child] = parent;
  }
  for (const auto& [joint, parent, child] : lines.joints) {
    std::string path_text = child, link = parent;
    for (size_t steps = 0; steps <= lines.joints.size() && parent_of.count(link); ++steps) {
      path_text = link + " -> " + path_text;
      if (link == child)
        throw SceneError(path, lines.joint.at(joint), 1, "joint '" + joint + "'",
                         "the joints form a cycle (" + path_text + "): a robot's links must form a tree");
      link = parent_of[link];
    }
  }
}

// The XML's structure, with TinyXML's own line numbers; a syntax error is reported where it is.
UrdfLines scan_xml(const std::string& path, const std::string& text) {
  if (const int line = too_deep(text))
    throw SceneError(path, line, 1, "xml",
                     "elements nest more than " + std::to_string(kMaxUrdfDepth) + " deep: this is no URDF");
  TiXmlDocument doc;
  doc.Parse(text.c_str());
  if (doc.Error())
    throw SceneError(path, doc.ErrorRow(), doc.ErrorCol(), "xml", std::string("not well-formed XML: ") + doc.ErrorDesc());
  const TiXmlElement* robot = doc.FirstChildElement("robot");
  if (!robot) throw SceneError(path, 1, 1, "robot", "a URDF file's root element is <robot>");
  UrdfLines lines;
  for (const TiXmlElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const char* name = e->Attribute("name");
    if (!name) continue;  // urdfdom reports it
    if (e->ValueStr() == "link") {
      lines.link.emplace(name, e->Row());
      lines.link_order.emplace_back(name);
    } else if (e->ValueStr() == "joint") {
      lines.joint.emplace(name, e->Row());
      const TiXmlElement* parent = e->FirstChildElement("parent");
      const TiXmlElement* child = e->FirstChildElement("child");
      const char* p = parent ? parent->Attribute("link") : nullptr;
      const char* c = child ? child->Attribute("link") : nullptr;
      if (p && c) lines.joints.push_back({name, p, c});  // urdfdom reports the others
    }
  }
  check_tree(path, lines);
  return lines;
}

// urdfdom reports through console_bridge's global handler; this collects its errors. One parse at
// a time: batches re-read scenes on several threads.
class CollectErrors : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR && first.empty()) first = text;
  }
  std::string first;
};

urdf::ModelInterfaceSharedPtr parse_urdf(const UrdfSource& source, const std::string& text) {
  static std::mutex mutex;
  const std::lock_guard<std::mutex> lock(mutex);
  CollectErrors errors;
  console_bridge::useOutputHandler(&errors);
  urdf::ModelInterfaceSharedPtr model;
  std::string thrown;
  try {
    model = urdf::parseURDF(text);
  } catch (const std::exception& e) {
    thrown = e.what();
  }
  console_bridge::restorePreviousOutputHandler();
  if (model) return model;
  std::string message = !errors.first.empty() ? errors.first : !thrown.empty() ? thrown : "urdfdom could not read it";
  // urdfdom names elements in brackets ("parent link [base] of joint [knee] not found"): point at
  // the first that the file has.
  int line = 0;
  for (size_t open = message.find('['); line == 0 && open != std::string::npos; open = message.find('[', open + 1)) {
    const size_t close = message.find(']', open);
    if (close == std::string::npos) break;
    const std::string name = message.substr(open + 1, close - open - 1);
    for (const auto* table : {&source.lines().joint, &source.lines().link})
      if (const auto it = table->find(name); line == 0 && it != table->end()) line = it->second;
  }
  source.fail(line, "urdf", message);
}

Vec3 vec(const urdf::Vector3& v) { return Vec3(v.x, v.y, v.z); }

Mat3 rotation(const urdf::Rotation& r) {
  Eigen::Quaterniond q(r.w, r.x, r.y, r.z);
  return q.normalized().toRotationMatrix();
}

Body body_of(const UrdfSource& source, const urdf::Link& link) {
  Body b;
  b.name = link.name;
  if (!valid_name(b.name) || b.name == "world")
    source.fail_link(b.name, "link names become body names: letters, digits and '_', not starting with a digit, "
                             "at most 100 characters, and only the root may be 'world'");
  if (const auto& in = link.inertial) {
    if (!std::isfinite(in->mass) || in->mass < 0) source.fail_link(b.name, "mass must be a finite number >= 0");
    Mat3 I;
    I << in->ixx, in->ixy, in->ixz, in->ixy, in->iyy, in->iyz, in->ixz, in->iyz, in->izz;
    if (!I.allFinite()) source.fail_link(b.name, "the inertia has a value that is not a finite number");
    const Mat3 R = rotation(in->origin.rotation);
    b.mass = in->mass;
    b.com = vec(in->origin.position);
    b.inertia = R * I * R.transpose();
    if (const std::string problem = inertia_problem(I); !problem.empty()) source.fail_link(b.name, problem);
  }
  return b;
}

// One line per kind of element the URDF has and impactsim does not model, naming the joints.
std::vector<std::string> ignored_elements(const std::string& path, const urdf::ModelInterface& urdf) {
  std::string limited, friction, mimic, other;
  auto add = [](std::string& list, const std::string& name) { list += (list.empty() ? "" : ", ") + name; };
  for (const auto& [name, j] : urdf.joints_) {
    const bool bounded = j->type == urdf::Joint::REVOLUTE || j->type == urdf::Joint::PRISMATIC;
    if (bounded && j->limits && j->limits->upper > j->limits->lower) add(limited, name);
    if (j->dynamics && j->dynamics->friction != 0) add(friction, name);
    if (j->mimic) add(mimic, name);
    if (j->safety || j->calibration) add(other, name);
  }
  std::vector<std::string> out;
  auto note = [&](const std::string& list, const std::string& what, const std::string& effect) {
    if (!list.empty()) out.push_back(path + ": joints " + list + ": " + what + " ignored (" + effect + ")");
  };
  note(limited, "<limit> lower/upper", "impactsim models no joint limits: the joints move past them");
  note(friction, "<dynamics friction>", "only <dynamics damping> is modelled");
  note(mimic, "<mimic>", "the joints move independently");
  note(other, "<safety_controller>, <calibration>", "not modelled");
  return out;
}

Joint joint_of(const UrdfSource& source, const urdf::Joint& j) {
  Joint out;
  switch (j.type) {
    case urdf::Joint::REVOLUTE:
    case urdf::Joint::CONTINUOUS: out.type = JointType::revolute; break;
    case urdf::Joint::PRISMATIC: out.type = JointType::prismatic; break;
    case urdf::Joint::FIXED: out.type = JointType::fixed; break;
    case urdf::Joint::FLOATING: out.type = JointType::free; break;
    case urdf::Joint::PLANAR: out.type = JointType::planar; break;
    default: source.fail_joint(j.name, "unknown joint type");
  }
  out.origin = vec(j.parent_to_joint_origin_transform.position);
  out.rotation = rotation(j.parent_to_joint_origin_transform.rotation);
  if (!out.origin.allFinite() || !out.rotation.allFinite()) source.fail_joint(j.name, "its origin is not finite");
  const Vec3 axis = vec(j.axis);
  if (joint_has_axis(out.type)) {
    if (!(axis.norm() > 1e-12)) source.fail_joint(j.name, "the axis must be a non-zero vector");
    out.axis = axis.normalized();
    if (j.dynamics) {
      out.damping = j.dynamics->damping;
      if (!(out.damping >= 0) || !std::isfinite(out.damping))
        source.fail_joint(j.name, "<dynamics damping> must be a number >= 0");
    }
  }
  if (out.type == JointType::planar && (axis.normalized() - Vec3::UnitZ()).norm() > 1e-12)
    source.fail_joint(j.name, "a planar joint moves in its frame's x-y plane: its axis (the plane's normal) must be 0 0 1; "
                              "rotate the joint's origin instead");
  return out;
}

std::vector<Geometry> shapes_of(const UrdfSource& source, const urdf::Link& link, int body, bool mesh_hull) {
  std::vector<Geometry> out;
  for (const auto& c : link.collision_array) {
    if (!c || !c->geometry) continue;
    Geometry g;
    g.body = body;
    g.name = !c->name.empty() ? c->name : link.name + "_" + std::to_string(out.size());
    if (!valid_name(g.name, ".-", true))
      source.fail_link(link.name, "collision name '" + g.name + "': shape names use letters, digits, '_', '.' and '-'");
    Shape& s = g.shape;
    const urdf::Geometry& geometry = *c->geometry;
    switch (geometry.type) {
      case urdf::Geometry::BOX:
        s.type = ShapeType::box;
        s.size = vec(static_cast<const urdf::Box&>(geometry).dim);
        if (!((s.size.array() > 0).all() && s.size.allFinite())) source.fail_link(link.name, "a box's size must be positive");
        break;
      case urdf::Geometry::SPHERE:
        s.type = ShapeType::sphere;
        s.radius = static_cast<const urdf::Sphere&>(geometry).radius;
        if (!(s.radius > 0 && std::isfinite(s.radius))) source.fail_link(link.name, "a sphere's radius must be positive");
        break;
      case urdf::Geometry::CYLINDER: {
        const auto& cylinder = static_cast<const urdf::Cylinder&>(geometry);
        s.type = ShapeType::cylinder;
        s.radius = cylinder.radius;
        s.length = cylinder.length;
        if (!(s.radius > 0 && s.length > 0 && std::isfinite(s.radius * s.length)))
          source.fail_link(link.name, "a cylinder's radius and length must be positive");
        break;
      }
      case urdf::Geometry::MESH: {
        const auto& mesh = static_cast<const urdf::Mesh&>(geometry);
        const Vec3 scale = vec(mesh.scale);
        if (!((scale.array() > 0).all() && scale.allFinite())) source.fail_link(link.name, "a mesh's scale must be positive");
        std::string file = mesh.filename;
        if (file.rfind("package://", 0) == 0)
          source.fail_link(link.name, "mesh '" + file + "': package:// paths need ROS; give the file relative to the URDF");
        if (file.rfind("file://", 0) == 0) file = file.substr(7);
        s.type = ShapeType::convex;
        s.file = path_beside(file, source.path());
        try {
          s.hull = mesh_solid(path_beside(file, source.path()), scale, mesh_hull, "set the scene's robot.mesh_hull: true");
        } catch (const std::invalid_argument& e) {
          source.fail_link(link.name, e.what());
        }
        break;
      }
    }
    s.position = vec(c->origin.position);
    s.rotation = rotation(c->origin.rotation);
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace

RobotSource read_robot(const Field& robot, const std::string& scene_file, Model& model, std::vector<Geometry>& geometries) {
  expect_section(robot, "robot");
  const Field file = robot.require("urdf");
  const std::string path = path_beside(file.text(), scene_file);
  const std::string text = read_text(file, path);
  const UrdfSource source(path, scan_xml(path, text));
  const urdf::ModelInterfaceSharedPtr urdf = parse_urdf(source, text);
  const JointType base = robot.has("base") ? choose<JointType>(robot.child("base"), {{"fixed", JointType::fixed},
                                                                                     {"free", JointType::free},
                                                                                     {"planar", JointType::planar}})
                                           : JointType::fixed;
  const bool mesh_hull = robot.has("mesh_hull") && robot.child("mesh_hull").boolean();

  const std::string root = urdf->getRoot()->name;
  const bool root_is_world = root == "world";
  if (root_is_world && urdf->getRoot()->inertial && urdf->getRoot()->inertial->mass > 0)
    source.fail_link(root, "the link named 'world' is the fixed world and cannot have mass");
  if (root_is_world && robot.has("base"))
    robot.child("base").fail("the URDF's root link is 'world', whose joints attach the robot; base applies to other roots");
  // Parents before children, otherwise in the file's order.
  std::map<std::string, int> index;  // link name -> body index (-1: the world)
  if (root_is_world) index[root] = -1;
  const auto& order = source.lines().link_order;
  for (bool added = true; added;) {
    added = false;
    for (const std::string& name : order) {
      if (index.count(name)) continue;
      urdf::LinkConstSharedPtr link = urdf->getLink(name);
      if (!link) continue;
      int parent = -1;
      if (link->parent_joint) {
        const auto p = index.find(link->parent_joint->parent_link_name);
        if (p == index.end()) continue;
        parent = p->second;
      }
      Body b = body_of(source, *link);
      b.parent = parent;
      if (link->parent_joint) b.joint = joint_of(source, *link->parent_joint);
      else b.joint.type = base;
      const int body = static_cast<int>(model.bodies.size());
      model.bodies.push_back(b);
      index[name] = body;
      const std::vector<Geometry> shapes = shapes_of(source, *link, body, mesh_hull);
      geometries.insert(geometries.end(), shapes.begin(), shapes.end());
      added = true;
    }
  }
  if (root_is_world) {
    const std::vector<Geometry> shapes = shapes_of(source, *urdf->getRoot(), -1, mesh_hull);
    geometries.insert(geometries.end(), shapes.begin(), shapes.end());
  }
  const int links = static_cast<int>(index.size()) - (root_is_world ? 1 : 0);
  if (links == 0) source.fail_link(root, "the robot has no links besides the world");
  return {path, sha256_hex(text), links, ignored_elements(path, *urdf)};
}

}  // namespace impactsim
