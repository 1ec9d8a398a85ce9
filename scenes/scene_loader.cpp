// Scene files -> Scene: the sections in the order they depend on one another (the model, its
// contacts and pins, the batch sections, the simulation), then what no run could survive. Every
// check that can fail names the file, line, column and key path.
#include <cmath>

#include "core/dynamics.hpp"
#include "core/integrators.hpp"
#include "numerics/short_number.hpp"
#include "scenes/scene.hpp"
#include "scenes/scene_batch_sections.hpp"
#include "scenes/scene_bodies.hpp"
#include "scenes/scene_contacts.hpp"
#include "scenes/scene_integrators.hpp"
#include "scenes/scene_keys.hpp"
#include "scenes/scene_meshes.hpp"
#include "scenes/scene_overrides.hpp"
#include "scenes/scene_robot.hpp"
#include "scenes/scene_simulation.hpp"
#include "scenes/scene_urdf.hpp"
#include "scenes/sha256.hpp"
#include "scenes/yaml_field.hpp"

namespace impactsim {
namespace {

constexpr double kMaxGravity = 1e6;  // [m/s^2] per component

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

// The scene's name: `name`, or the file's stem, usable as a directory name.
std::string read_name(const Field& root, const std::string& file) {
  const std::string name = root.has("name") ? root.child("name").text() : stem_of(file);
  if (!valid_name(name, ".-", true) || name == "." || name == "..")
    (root.has("name") ? root.child("name") : root)
        .fail(name_rule("the scene's name (or its file's name) uses letters, digits, '_', '-' and '.' only (it names "
                        "the output directory)"));
  return name;
}

// The model: the world's shapes, a URDF robot's links, then the scene's bodies, finalized, with
// gravity, the initial state and every robot.* key; its geometries in `geometries`.
void read_model(const Field& root, const std::string& file, Scene& scene, std::vector<Geometry>& geometries) {
  const Field world = root.child("world");
  if (world.defined()) expect_section(world, "world");
  if (world.has("shapes")) geometries = read_shapes(world.child("shapes"), -1, "world", true, file);
  Model& model = scene.system.model;
  const Field robot = root.child("robot");
  if (robot.defined()) scene.robot = read_robot(robot, file, model, geometries);
  const size_t robot_bodies = model.bodies.size();
  const Field bodies = robot.defined() ? root.child("bodies") : root.require("bodies");
  const std::vector<Field> body_fields = read_bodies(bodies, file, model, geometries);
  if (body_fields.empty() && robot_bodies == 0) bodies.fail("a scene needs at least one body");
  const Field& model_field = bodies.defined() ? bodies : robot;  // where problems of the whole model are reported
  finalize_model(model);

  const bool planar_declared = world.has("planar") && world.child("planar").boolean();
  if (planar_declared && !model.planar)
    world.child("planar").fail("the scene is declared planar, but a joint moves out of the x-y plane "
                               "(planar scenes use planar joints, revolute joints about z and prismatic joints in the plane)");
  model.gravity = world.has("gravity") ? world.child("gravity").vec3()
                                       : (model.planar ? Vec3(0, -9.81, 0) : Vec3(0, 0, -9.81));
  if (!(model.gravity.cwiseAbs().maxCoeff() <= kMaxGravity))
    world.child("gravity").fail("each component must be within " + short_number(kMaxGravity) +
                                " m/s^2 (about 100,000 g): beyond, the scene's energies overflow double precision");

  scene.initial.q = neutral_configuration(model);
  scene.initial.v = Eigen::VectorXd::Zero(model.nv);
  for (size_t i = 0; i < body_fields.size(); ++i)
    if (body_fields[i].has("initial"))
      read_initial(body_fields[i].child("initial"), model.bodies[robot_bodies + i], scene.initial);
  read_robot_keys(robot, model, robot_bodies, scene.initial);

  if (model.nv == 0) model_field.fail("the scene has no degrees of freedom (every joint is fixed)");
  const MassMatrixCheck m = check_mass_matrix(model, scene.initial.q);
  if (m.conditioning < 1e-12)
    model_field.fail("the mass matrix is singular at the initial configuration: nothing has mass or inertia along '" +
                     model.v_names[m.weakest] + "' (give the bodies this joint moves mass or inertia)");
}

Scene build_scene(const YAML::Node& doc, const std::string& file) {
  const Field root(file, doc, "");
  expect_section(root, "");
  Scene scene;
  System& system = scene.system;
  scene.source = file;
  scene.name = read_name(root, file);
  if (root.has("description")) scene.description = root.child("description").text();
  std::vector<Geometry> geometries;
  read_model(root, file, scene, geometries);
  const Model& model = system.model;
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
  read_simulation_sections(root, scene);
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
