#include "scenes/scene_robot.hpp"

#include "scenes/scene_bodies.hpp"

namespace impactsim {
namespace {

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
                      [](Body& body, const std::string&, const Field& value) { body.com = value.position(); });
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
                      [](Body& body, const std::string&, const Field& value) { body.joint.origin = value.position(); });
}

}  // namespace

void read_robot_keys(const Field& robot, Model& model, size_t robot_bodies, State& initial) {
  if (robot.has("initial")) read_robot_initial(robot.child("initial"), model, robot_bodies, initial);
  if (robot.has("damping")) read_robot_damping(robot.child("damping"), model, robot_bodies);
  if (robot.has("mass")) read_robot_mass(robot.child("mass"), robot.child("inertia"), model, robot_bodies);
  if (robot.has("com")) read_robot_com(robot.child("com"), model, robot_bodies);
  if (robot.has("inertia")) read_robot_inertia(robot.child("inertia"), model, robot_bodies);
  if (robot.has("origin")) read_robot_origin(robot.child("origin"), model, robot_bodies);
}

}  // namespace impactsim
