// The impact laws as algebra from Python: a contact space from numpy arrays, a law by name with
// its settings, prepared at (space, v-) and sampled; and the first impact of a scene, sampled as
// `impactsim impact` samples it.
#include <pybind11/stl.h>
#include <yaml-cpp/yaml.h>

#include "impact/laws.hpp"
#include "python/sampling.hpp"
#include "scenes/scene.hpp"
#include "scenes/scene_settings.hpp"

namespace impactsim::python {
namespace {

// Contacts named by their position ("0", "1", ...): what contact settings (sequential's start and
// list) name in a space built from arrays.
const std::vector<ContactDef>& positional_contacts() {
  static const std::vector<ContactDef> contacts = [] {
    std::vector<ContactDef> c(1024);
    for (size_t i = 0; i < c.size(); ++i) c[i].name = std::to_string(i);
    return c;
  }();
  return contacts;
}

// The law `name` with `settings` (key -> YAML text of the value), read and checked as a scene's
// simulation.<name> section is; SceneError naming the key for a bad value.
std::shared_ptr<const ImpactLaw> law_from(const std::string& name, const std::map<std::string, std::string>& settings) {
  const LawDescriptor* law = find_law(name);
  if (!law) throw py::value_error("no law named '" + name + "' (laws: " + law_names_text() + ")");
  std::string text;
  for (const auto& [key, value] : settings) text += key + ": " + value + "\n";
  static const std::string file = "<impactsim.laws>";
  const Field section(file, text.empty() ? YAML::Node(YAML::NodeType::Map) : YAML::Load(text), name);
  LawSettings all;
  if (!law->settings.empty() || !settings.empty()) {
    all.of(name) = read_settings(section, law->settings, positional_contacts());
    if (law->check)
      if (const SettingProblem problem = law->check(all.of(name))) fail_at(section, problem);
  }
  return make_law(name, all);
}

// A contact space from arrays, checked: shapes, finite entries, M symmetric positive definite,
// mu >= 0, e in [0, 1].
SpacePtr space_from(const py::handle& M, const py::handle& J_n, const py::handle& J_t, const py::handle& mu,
                    const py::handle& e, int friction_directions, bool circular_cone) {
  auto c = std::make_shared<ContactSpace>();
  c->M = to_matrix(M, "M");
  const long nv = c->M.rows();
  if (c->M.cols() != nv) throw py::value_error("M: must be square, got " + std::to_string(nv) + " x " + std::to_string(c->M.cols()));
  c->J_n = to_matrix(J_n, "J_n", -1, nv);
  const long m = c->J_n.rows();
  c->J_t = to_matrix(J_t, "J_t", -1, nv);
  if (c->J_t.rows() != m && c->J_t.rows() != 2 * m)
    throw py::value_error("J_t: must have m = " + std::to_string(m) + " rows (planar) or 2 m = " + std::to_string(2 * m) +
                          " (3-D), got " + std::to_string(c->J_t.rows()));
  c->tangent_dim = m > 0 ? static_cast<int>(c->J_t.rows() / m) : 1;
  c->mu = to_vector(mu, "mu", m);
  c->e = to_vector(e, "e", m);
  if ((c->M - c->M.transpose()).cwiseAbs().maxCoeff() > 1e-9 * std::max(1.0, c->M.cwiseAbs().maxCoeff()))
    throw py::value_error("M: must be symmetric");
  if (mass_factor(*c).info() != Eigen::Success) throw py::value_error("M: must be positive definite");
  if ((c->mu.array() < 0).any()) throw py::value_error("mu: every entry must be >= 0");
  if ((c->e.array() < 0).any() || (c->e.array() > 1).any()) throw py::value_error("e: every entry must be in [0, 1]");
  if (friction_directions < 3) throw py::value_error("friction_directions: must be >= 3");
  c->friction_directions = friction_directions;
  c->circular_cone = circular_cone;
  return c;
}

PreparedSampler prepare(const std::shared_ptr<const ImpactLaw>& law, const SpacePtr& space, const py::handle& v) {
  PreparedSampler s{space, to_vector(v, "v_minus", space->M.cols()), nullptr, std::string(law->name())};
  without_gil([&] { s.prepared = law->prepare(*s.space, s.v_minus); });
  return s;
}

// The first impact of a scene (at its initial state, or found by simulating), its space and v-.
py::dict first_impact(const Scene& scene) {
  const ImpactState impact = scene_first_impact(scene.system, scene.initial, scene.source);
  return impact_dict(scene, impact, std::make_shared<ContactSpace>(impact.space));
}

void bind_space(py::module_& m) {
  py::class_<ContactSpace, std::shared_ptr<ContactSpace>>(m, "ContactSpaceHandle")
      .def(py::init([](const py::object& M, const py::object& J_n, const py::object& J_t, const py::object& mu,
                       const py::object& e, int k, bool circular) {
             return std::const_pointer_cast<ContactSpace>(space_from(M, J_n, J_t, mu, e, k, circular));
           }),
           py::arg("M"), py::arg("J_n"), py::arg("J_t"), py::arg("mu"), py::arg("e"), py::arg("friction_directions"),
           py::arg("circular_cone"))
      .def_property_readonly("M", [](const ContactSpace& c) { return to_array(c.M); })
      .def_property_readonly("J_n", [](const ContactSpace& c) { return to_array(c.J_n); })
      .def_property_readonly("J_t", [](const ContactSpace& c) { return to_array(c.J_t); })
      .def_property_readonly("mu", [](const ContactSpace& c) { return to_array(c.mu); })
      .def_property_readonly("e", [](const ContactSpace& c) { return to_array(c.e); })
      .def_property_readonly("tangent_dim", [](const ContactSpace& c) { return c.tangent_dim; })
      .def_property_readonly("friction_directions", [](const ContactSpace& c) { return c.friction_directions; })
      .def_property_readonly("circular_cone", [](const ContactSpace& c) { return c.circular_cone; })
      .def_property_readonly("contacts", &ContactSpace::contacts);
}

}  // namespace

void bind_laws(py::module_& m) {
  bind_space(m);
  py::class_<ImpactLaw, std::shared_ptr<ImpactLaw>>(m, "LawHandle")
      .def_property_readonly("name", [](const ImpactLaw& l) { return std::string(l.name()); })
      .def("resolve", [](const std::shared_ptr<ImpactLaw>& law, const SpacePtr& space, const py::object& v,
                         std::uint64_t seed) {
        const Eigen::VectorXd v_minus = to_vector(v, "v_minus", space->M.cols());
        ImpactResult r;
        without_gil([&] {
          Rng rng(seed);
          r = law->resolve(*space, v_minus, rng);
        });
        return result_dict(r);
      });
  py::class_<PreparedSampler>(m, "PreparedHandle")
      .def_property_readonly("law", [](const PreparedSampler& s) { return s.law; })
      .def_property_readonly("v_minus", [](const PreparedSampler& s) { return to_array(s.v_minus); })
      .def_property_readonly("space", [](const PreparedSampler& s) { return std::const_pointer_cast<ContactSpace>(s.space); })
      .def("sample", &sample_arrays, py::arg("n"), py::arg("seed"), py::arg("threads"), py::arg("first"));
  m.def("make_law", [](const std::string& name, const std::map<std::string, std::string>& settings) {
    return std::const_pointer_cast<ImpactLaw>(law_from(name, settings));
  });
  m.def("prepare", [](const std::shared_ptr<ImpactLaw>& law, const std::shared_ptr<ContactSpace>& space,
                      const py::object& v) { return prepare(law, space, v); });
  m.def("first_impact", first_impact);
  m.def("law_names", &law_names);
}

}  // namespace impactsim::python
