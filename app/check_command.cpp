// impactsim check: validate a scene and summarize its model.
#include <iostream>
#include <Eigen/Eigenvalues>
#include <sstream>

#include <spdlog/spdlog.h>

#include "app/command_setup.hpp"
#include "app/commands.hpp"
#include "app/metadata.hpp"
#include "core/integrators.hpp"
#include "collision/shape.hpp"
#include "core/joint.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

std::string vec(const Vec3& a) {
  std::ostringstream s;
  s << '[' << a.x() << ", " << a.y() << ", " << a.z() << ']';
  return s.str();
}

std::string number(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

// Every contact with its bodies' shapes and materials, the first kListed of them by name.
void describe_contacts(const Scene& scene, std::ostream& s) {
  constexpr int kListed = 24;
  const ContactModel& contacts = scene.system.contacts;
  s << "contacts     " << contacts.size() << (contacts.size() > 0 ? " (mu, e)" : "") << '\n';
  for (int i = 0; i < contacts.size() && i < kListed; ++i) {
    const ContactDef& c = contacts.contact(i);
    s << "  " << c.name << ": mu " << c.mu << ", e " << c.e << '\n';
  }
  if (contacts.size() > kListed) s << "  ... " << contacts.size() - kListed << " more\n";
}

}  // namespace

std::string describe_scene(const Scene& scene) {
  const Model& m = scene.system.model;
  std::ostringstream s;
  s.precision(6);
  s << "scene        " << scene.name << " (" << scene.source << ")\n";
  for (const SceneOverride& o : scene.overrides) s << "  --set " << o.text() << '\n';
  if (!scene.description.empty()) s << "description  " << scene.description << '\n';
  if (!scene.robot.urdf.empty())
    s << "robot        " << scene.robot.urdf << " (" << scene.robot.links << " links, sha256 " << scene.robot.sha256.substr(0, 12)
      << ")\n";
  for (const std::string& note : scene.robot.ignored) s << "  ignored: " << note << '\n';
  for (const MeshSource& mesh : scene.meshes) s << "mesh file    " << mesh.path << " (sha256 " << mesh.sha256.substr(0, 12) << ")\n";
  s << "planar       " << (m.planar ? "yes" : "no") << '\n';
  s << "gravity      " << vec(m.gravity) << " m/s^2\n";
  s << "bodies       " << m.bodies.size() << ", total mass " << m.total_mass() << " kg\n";
  for (const Body& b : m.bodies) {
    s << "  " << b.name << ": " << joint_type_name(b.joint.type) << " joint to "
      << (b.parent < 0 ? std::string("world") : m.bodies[b.parent].name) << ", mass " << b.mass << " kg, com "
      << vec(b.com) << ", principal inertia " << vec(Eigen::SelfAdjointEigenSolver<Mat3>(b.inertia).eigenvalues())
      << " kg m^2";
    if (b.joint.damping > 0) s << ", damping " << b.joint.damping << (b.joint.type == JointType::revolute ? " N m s/rad" : " N s/m");
    s << '\n';
  }
  s << "dof          nq = " << m.nq << ", nv = " << m.nv << '\n';
  s << "coordinates  ";
  for (size_t i = 0; i < m.q_names.size(); ++i) s << (i ? ", " : "") << m.q_names[i];
  s << '\n';
  const std::vector<Geometry>& geometries = scene.system.contacts.geometries();
  s << "shapes       " << geometries.size();
  for (const Geometry& g : geometries)
    s << (&g == &geometries.front() ? ": " : ", ") << g.name << " (" << shape_type_name(g.shape.type) << ')';
  s << '\n';
  const auto [K, U] = energies(m, scene.initial.q, scene.initial.v);
  s << "initial      kinetic " << K << " J, potential " << U << " J, total " << K + U << " J\n";
  describe_contacts(scene, s);
  const SimulationSettings& sim = scene.system.simulation;
  s << "simulation   t_end " << sim.t_end << " s, output every " << sim.output_interval << " s, rtol "
    << sim.ode.rtol << ", atol " << sim.ode.atol << '\n';
  s << "integrator   " << describe_integrator(scene.system) << '\n';
  const std::string law_settings = describe_law_settings(scene.law, scene.laws, scene.system.contacts);
  s << "law          " << scene.law << (law_settings.empty() ? "" : " (" + law_settings + ")")
    << (scene.system.integrator == Integrator::event_driven ? "" : "; unused by this integrator") << '\n';
  s << "seed         " << scene.seed << '\n';
  s << "randomize    " << (scene.randomize.empty() ? "none" : std::to_string(scene.randomize.size())) << '\n';
  auto distribution = [&](RandomLaw law, double a, double b) {
    return law == RandomLaw::uniform ? "uniform [" + number(a) + ", " + number(b) + "]"
                                     : "normal, mean " + number(a) + ", sd " + number(b);
  };
  for (const RandomCoordinate& r : scene.randomize) s << "  " << r.name << ": " << distribution(r.law, r.a, r.b) << '\n';
  if (!scene.randomize_keys.empty()) {
    s << "randomize_keys " << scene.randomize_keys.size() << " (scene keys drawn per run)\n";
    for (const RandomParameter& p : scene.randomize_keys)
      s << "  " << p.key << ": " << distribution(p.law, p.a, p.b) << '\n';
  }
  s << "outcomes     ";
  for (size_t i = 0; i < scene.outcomes.size(); ++i) s << (i ? ", " : "") << scene.outcomes[i].name;
  s << (scene.outcomes.empty() ? "none\n" : "\n");
  return s.str();
}

int check_command(const std::string& scene_path, const std::vector<std::string>& overrides) {
  const std::optional<Scene> scene = load_scene_or_report(scene_path, overrides);
  if (!scene) return kExitScene;
  std::cout << describe_scene(*scene);
  return kExitOk;
}

}  // namespace impactsim
