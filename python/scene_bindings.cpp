// Scenes from Python: loaded from a file or from text, with overrides, and what `impactsim check`
// prints, as data.
#include <Eigen/Eigenvalues>
#include <pybind11/stl.h>

#include "app/commands.hpp"
#include "app/metadata.hpp"
#include "collision/shape.hpp"
#include "core/dynamics.hpp"
#include "core/integrators.hpp"
#include "core/joint.hpp"
#include "python/bindings.hpp"
#include "scenes/scene.hpp"

namespace impactsim::python {
namespace {

std::vector<SceneOverride> parse_overrides(const std::vector<std::string>& texts) {
  std::vector<SceneOverride> out;
  for (const std::string& t : texts) out.push_back(parse_override(t));
  return out;
}

py::list vec(const Vec3& a) { return py::cast(std::vector<double>{a.x(), a.y(), a.z()}); }

py::list bodies_of(const Model& m) {
  py::list bodies;
  for (const Body& b : m.bodies) {
    py::dict d;
    d["name"] = b.name;
    d["joint"] = std::string(joint_type_name(b.joint.type));
    d["parent"] = b.parent < 0 ? std::string("world") : m.bodies[b.parent].name;
    d["mass"] = b.mass;
    d["com"] = vec(b.com);
    d["principal_inertia"] = vec(Eigen::SelfAdjointEigenSolver<Mat3>(b.inertia).eigenvalues());
    d["damping"] = b.joint.damping;
    bodies.append(d);
  }
  return bodies;
}

py::list contacts_of(const ContactModel& contacts) {
  py::list out;
  for (int i = 0; i < contacts.size(); ++i) {
    const ContactDef& c = contacts.contact(i);
    py::dict d;
    d["name"] = c.name;
    d["mu"] = c.mu;
    d["e"] = c.e;
    out.append(d);
  }
  return out;
}

py::dict distribution(RandomLaw law, double a, double b) {
  py::dict d;
  d["law"] = law == RandomLaw::uniform ? "uniform" : "normal";
  d[law == RandomLaw::uniform ? "low" : "mean"] = a;
  d[law == RandomLaw::uniform ? "high" : "sd"] = b;
  return d;
}

py::list randomize_of(const Scene& scene) {
  py::list out;
  for (const RandomCoordinate& r : scene.randomize) {
    py::dict d = distribution(r.law, r.a, r.b);
    d["name"] = r.name;
    out.append(d);
  }
  for (const RandomParameter& p : scene.randomize_keys) {
    py::dict d = distribution(p.law, p.a, p.b);
    d["key"] = p.key;
    out.append(d);
  }
  return out;
}

// What `impactsim check` prints, as a dict; "text" holds the printed text itself.
py::dict check(const Scene& scene) {
  const Model& m = scene.system.model;
  py::dict d;
  d["name"] = scene.name;
  d["source"] = scene.source;
  std::vector<std::string> overrides;
  for (const SceneOverride& o : scene.overrides) overrides.push_back(o.text());
  d["overrides"] = overrides;
  d["description"] = scene.description;
  d["planar"] = m.planar;
  d["gravity"] = vec(m.gravity);
  d["total_mass"] = m.total_mass();
  d["bodies"] = bodies_of(m);
  d["nq"] = m.nq;
  d["nv"] = m.nv;
  d["q_names"] = m.q_names;
  d["v_names"] = m.v_names;
  py::list shapes;
  for (const Geometry& g : scene.system.contacts.geometries())
    shapes.append(py::make_tuple(g.name, std::string(shape_type_name(g.shape.type))));
  d["shapes"] = shapes;
  const auto [K, U] = energies(m, scene.initial.q, scene.initial.v);
  d["initial_energy"] = py::dict(py::arg("kinetic") = K, py::arg("potential") = U, py::arg("total") = K + U);
  d["contacts"] = contacts_of(scene.system.contacts);
  const SimulationSettings& sim = scene.system.simulation;
  d["simulation"] = py::dict(py::arg("t_end") = sim.t_end, py::arg("output_interval") = sim.output_interval,
                             py::arg("rtol") = sim.ode.rtol, py::arg("atol") = sim.ode.atol);
  d["integrator"] = describe_integrator(scene.system);
  d["law"] = scene.law;
  d["law_settings"] = describe_law_settings(scene.law, scene.laws, scene.system.contacts);
  d["seed"] = scene.seed;
  d["randomize"] = randomize_of(scene);
  std::vector<std::string> outcomes;
  for (const OutcomeDef& o : scene.outcomes) outcomes.push_back(o.name);
  d["outcomes"] = outcomes;
  d["text"] = describe_scene(scene);
  return d;
}

std::vector<std::string> contact_names(const Scene& s) {
  std::vector<std::string> names;
  for (const ContactDef& c : s.system.contacts.contacts()) names.push_back(c.name);
  return names;
}

}  // namespace

void bind_scene(py::module_& m) {
  py::class_<Scene, std::shared_ptr<Scene>>(m, "SceneHandle", "A loaded scene (impactsim.Scene wraps it).")
      .def_property_readonly("name", [](const Scene& s) { return s.name; })
      .def_property_readonly("description", [](const Scene& s) { return s.description; })
      .def_property_readonly("source", [](const Scene& s) { return s.source; })
      .def_property_readonly("law", [](const Scene& s) { return s.law; })
      .def_property_readonly("seed", [](const Scene& s) { return s.seed; })
      .def_property_readonly("t_end", [](const Scene& s) { return s.system.simulation.t_end; })
      .def_property_readonly("planar", [](const Scene& s) { return s.system.model.planar; })
      .def_property_readonly("q_names", [](const Scene& s) { return s.system.model.q_names; })
      .def_property_readonly("v_names", [](const Scene& s) { return s.system.model.v_names; })
      .def_property_readonly("contact_names", contact_names)
      .def_property_readonly("precision", [](const Scene& s) { return s.output.precision; })
      .def_property_readonly("initial_q", [](const Scene& s) { return to_array(s.initial.q); })
      .def_property_readonly("initial_v", [](const Scene& s) { return to_array(s.initial.v); })
      .def_property_readonly("text_sha256", [](const Scene& s) { return scene_content_sha256(s); })
      .def("check", check)
      .def("describe", [](const Scene& s) { return describe_scene(s); });
  m.def(
      "load_scene",
      [](const std::string& path, const std::vector<std::string>& overrides) {
        return std::make_shared<Scene>(load_scene(path, parse_overrides(overrides)));
      },
      py::arg("path"), py::arg("overrides"));
  m.def(
      "scene_from_yaml",
      [](const std::string& text, const std::string& name, const std::vector<std::string>& overrides) {
        return std::make_shared<Scene>(load_scene_text(text, name, parse_overrides(overrides)));
      },
      py::arg("text"), py::arg("name"), py::arg("overrides"));
}

}  // namespace impactsim::python
