#include "scenes/scene_keys.hpp"

#include <sstream>

#include "core/integrators.hpp"
#include "impact/laws.hpp"

namespace impactsim {
namespace {

// The table. Section names are key paths ("simulation.contact"); list sections name their entries
// ("bodies" is each entry of bodies). scenes/README.md shows each section's rows in this order.
const std::vector<SceneKey> kKeys = {
    // Top level.
    {"", "name", "string", "file name without `.yaml`", "letters, digits, `_ - .`, at most 100; names the default output directory", ""},
    {"", "description", "string", "", "free text", ""},
    {"", "world", "map", "", "see below", ""},
    {"", "robot", "map", "", "a URDF robot whose links become bodies ahead of `bodies`, see below", ""},
    {"", "bodies", "list", "required unless `robot` is given", "at least one body; a parent is listed before its children", ""},
    {"", "materials", "map", "", "friction and restitution, see below", ""},
    {"", "contacts", "list", "", "the scene's contacts, see below; none means a contact-free scene", ""},
    {"", "collide", "`all` or list", "", "bodies whose shapes make contacts automatically, see below", ""},
    {"", "constraints", "list", "", "pins: bilateral constraints for the fixed-step integrators, see below", ""},
    {"", "randomize", "map", "", "initial coordinates drawn per batch run, see below", ""},
    {"", "randomize_keys", "map", "", "scene parameters (materials, masses, sizes...) drawn per batch run, see below", ""},
    {"", "outcomes", "list", "", "extra columns of a batch's `runs.csv`, see below", ""},
    {"", "simulation", "map", "required", "see below", ""},
    {"", "output", "map", "", "see below", ""},

    {"world", "gravity", "`[x, y, z]`", "`[0, -9.81, 0]` in a planar scene, else `[0, 0, -9.81]`", "m/s^2, world frame", ""},
    {"world", "planar", "bool", "inferred", "`true` asserts the scene is planar and fails if it is not", ""},
    {"world", "shapes", "list of shapes", "", "static geometry (the ground); the only place a `halfspace` may go", ""},

    {"robot", "urdf", "file path", "required", "the URDF file, relative to the scene file; links become bodies named as the links", ""},
    {"robot", "base", "`fixed`, `free`, `planar`", "`fixed`",
     "the joint from the world to the root link, unless the root link is named `world` (then that link is the world)", ""},
    {"robot", "mesh_hull", "bool", "`false`", "use the convex hull of collision meshes that are not convex (else an error)", ""},
    {"robot", "initial", "map", "all zero", "link name -> the initial coordinates of its joint, as a body's `initial`", ""},
    {"robot", "damping", "map", "the URDF's `<dynamics damping>`",
     "link name -> the viscous damping of the joint that moves it (revolute, prismatic; >= 0, N m s/rad or N s/m)", ""},
    {"robot", "mass", "map", "the URDF's `<inertial><mass>`",
     "link name -> its mass (> 0, kg); the inertia about its centre of mass scales with it, the centre stays", ""},
    {"robot", "com", "map", "the URDF's `<inertial><origin xyz>`",
     "link name -> its centre of mass `[x, y, z]` in the link frame (m); the inertia about the centre stays", ""},
    {"robot", "inertia", "map", "the URDF's `<inertia>`",
     "link name -> its inertia about the centre of mass in the link's axes, as a body's `inertia` (kg m^2); taken as given with `mass`", ""},
    {"robot", "origin", "map", "the URDF's joint `<origin xyz>`",
     "link name -> the origin `[x, y, z]` of the joint that moves it, in the parent link's frame (m); the joint's rpy stays", ""},

    {"bodies", "name", "identifier", "required", "unique; `world` is reserved; used in output columns; at most 100 characters", ""},
    {"bodies", "parent", "body name", "`world`", "must be listed earlier", ""},
    {"bodies", "joint", "map", "required", "see below", ""},
    {"bodies", "mass", "number >= 0", "", "kg", ""},
    {"bodies", "inertia", "`[Ixx, Iyy, Izz]` or `[Ixx, Iyy, Izz, Ixy, Ixz, Iyz]`", "",
     "kg m^2 about the centre of mass, body axes; positive semi-definite and satisfying I1 + I2 >= I3", ""},
    {"bodies", "com", "`[x, y, z]`", "`[0, 0, 0]`", "centre of mass in the body frame, m", ""},
    {"bodies", "density", "number > 0", "", "kg/m^3; mass, com and inertia computed from `shapes`", ""},
    {"bodies", "shapes", "list of shapes", "", "collision geometry, placed in the body frame", ""},
    {"bodies", "initial", "map", "all zero", "initial coordinates, see below", ""},

    {"bodies.joint", "type", "`planar`, `free`, `revolute`, `prismatic`, `fixed`", "required", "", ""},
    {"bodies.joint", "origin", "`[x, y, z]`", "`[0, 0, 0]`", "joint frame origin in the parent's body frame, m", ""},
    {"bodies.joint", "rpy_deg", "`[roll, pitch, yaw]`", "`[0, 0, 0]`",
     "joint frame orientation in the parent frame: R = Rz(yaw) Ry(pitch) Rx(roll)", ""},
    {"bodies.joint", "axis", "`[x, y, z]`, non-zero", "z for revolute, x for prismatic",
     "revolute and prismatic only; in the joint frame; normalized", "revolute prismatic"},
    {"bodies.joint", "damping", "number >= 0", "0",
     "revolute and prismatic only: viscous damping, the force -damping * qdot on the joint's coordinate (N m s/rad, N s/m)",
     "revolute prismatic"},

    {"shapes", "type", "`box`, `sphere`, `cylinder`, `capsule`, `cone`, `halfspace`, `convex`, `mesh`", "required", "the solid", ""},
    {"shapes", "name", "letters, digits, `_ . -`", "`<body>_<index>` (or `world_<index>`)", "unique among the scene's shapes", ""},
    {"shapes", "position", "`[x, y, z]`", "`[0, 0, 0]`", "the shape frame's origin in the body frame, m", ""},
    {"shapes", "rpy_deg", "`[roll, pitch, yaw]`", "`[0, 0, 0]`", "the shape frame's orientation in the body frame", ""},
    {"shapes", "size", "`[lx, ly, lz]`, positive", "required", "box only: full edge lengths, m", "box"},
    {"shapes", "radius", "number > 0", "required", "sphere, cylinder, capsule and cone (its base): m", "sphere cylinder capsule cone"},
    {"shapes", "length", "number > 0 (cylinder, cone), >= 0 (capsule)", "required",
     "cylinder, capsule and cone: along the shape's z axis, m; for a capsule, the cylindrical part (the caps extend "
     "beyond it); a cone's base is at z = -length/2 and its apex at +length/2",
     "cylinder capsule cone"},
    {"shapes", "normal", "`[x, y, z]`, non-zero", "required",
     "halfspace only: the solid is `normal . x <= offset` in the shape frame; the normal (normalized) points out of it",
     "halfspace"},
    {"shapes", "offset", "number", "0", "halfspace only: see `normal`, m", "halfspace"},
    {"shapes", "vertices", "list of `[x, y, z]`, at least 4", "required",
     "convex only: the shape is their convex hull (Qhull), in the shape frame, m", "convex"},
    {"shapes", "file", "path to an OBJ or STL file", "required",
     "mesh only: relative to the scene file's directory; units are metres; a closed, outward, convex surface unless `hull`",
     "mesh"},
    {"shapes", "hull", "bool", "false", "mesh only: collide with (and weigh) the convex hull of the file's vertices", "mesh"},

    {"materials", "mu", "number >= 0", "0", "Coulomb friction coefficient of every contact", ""},
    {"materials", "e", "number in [0, 1]", "0", "Newton restitution coefficient of every contact", ""},
    {"materials", "pairs", "list", "", "overrides for the contacts between two bodies, below", ""},

    {"materials.pairs", "bodies", "`[a, b]`, two body names", "required", "the pair (`world` names the world)", ""},
    {"materials.pairs", "mu", "number >= 0", "`materials.mu`", "friction of the pair's contacts", ""},
    {"materials.pairs", "e", "number in [0, 1]", "`materials.e`", "restitution of the pair's contacts", ""},

    {"contacts", "name", "letters, digits, `_ . + -`", "required", "the contact's name (a shape's features get suffixes, below)", ""},
    {"contacts", "body", "body name or `world`", "required with `point`", "the first body", ""},
    {"contacts", "point", "`[x, y, z]`", "required with `body`", "the feature, in the first body's frame, m", ""},
    {"contacts", "radius", "number >= 0", "0", "a sphere (disk) of this radius around `point`, m", ""},
    {"contacts", "shape", "shape name", "", "instead of `body` and `point`: the shape's features, below", ""},
    {"contacts", "with", "shape name", "required", "the solid on the second body", ""},
    {"contacts", "mu", "number >= 0", "the materials'", "friction, overriding the materials", ""},
    {"contacts", "e", "number in [0, 1]", "the materials'", "restitution, overriding the materials", ""},
    {"contacts", "only_ahead_of", "contact name", "", "point contacts only: cannot impact while behind that contact, below", ""},

    {"collide", "bodies", "`[a, b]`, body names or `world`", "required", "every shape of a against every shape of b", ""},
    {"collide", "mu", "number >= 0", "from `materials`", "friction of the pair's contacts", ""},
    {"collide", "e", "number in [0, 1]", "from `materials`", "restitution of the pair's contacts", ""},

    {"constraints", "name", "letters, digits, `_ . -`", "required", "unique", ""},
    {"constraints", "type", "`pin`", "required", "", ""},
    {"constraints", "body", "body name", "required", "the pinned body", ""},
    {"constraints", "point", "`[x, y, z]`", "`[0, 0, 0]`", "the pinned point in that body's frame, m", ""},
    {"constraints", "to", "body name or `world`", "`world`", "the other body", ""},
    {"constraints", "at", "`[x, y, z]`", "where `point` is at the initial configuration",
     "the point it is held on, in `to`'s frame, m", ""},

    {"randomize.<coordinate>", "uniform", "`[a, b]`, a <= b", "", "drawn uniformly in [a, b]", ""},
    {"randomize.<coordinate>", "normal", "`[mean, sd]`, sd >= 0", "", "drawn from the normal distribution", ""},

    {"randomize_keys.<key>", "uniform", "`[a, b]`, a <= b", "", "drawn uniformly in [a, b]", ""},
    {"randomize_keys.<key>", "normal", "`[mean, sd]`, sd >= 0", "", "drawn from the normal distribution", ""},

    {"outcomes", "name", "letters, digits, `_` and `.`", "required", "the column's name, at most 100 characters; not a fixed column of runs.csv (`run`, `status`, `final.*`, `<contact>.closed`...)", ""},
    {"outcomes", "final", "`<body>.<coordinate>` of q or v, `_deg` for degrees", "", "that coordinate's final value", ""},
    {"outcomes", "closed", "contact name", "",
     "1 if the contact is closed at the end (touching, neither approaching nor separating), else 0", ""},
    {"outcomes", "impacts", "contact name", "", "how many impacts (`impact`, `zeno`, `iwc` events) involved the contact", ""},
    {"outcomes", "lifts", "contact name", "",
     "how many of those impacts left the contact separating (normal velocity after it above `velocity_tolerance`)", ""},
    {"outcomes", "first_lift", "contact name", "", "1 if the first impact that involved the contact left it separating, else 0", ""},

    {"simulation", "t_end", "number > 0", "required", "s", ""},
    {"simulation", "output_interval", "number > 0", "0.01", "s between rows of `trajectory.csv`; the last row is at `t_end`", ""},
    {"simulation", "rtol", "number in [1e-14, 1)", "1e-8", "Dormand-Prince 5(4) relative error tolerance", ""},
    {"simulation", "atol", "number > 0", "1e-10", "Dormand-Prince 5(4) absolute error tolerance", ""},
    {"simulation", "max_step", "number >= 0", "0 (none)", "largest step, s", ""},
    {"simulation", "initial_step", "number > 0", "automatic", "first step, s", ""},
    {"simulation", "max_steps", "integer 1..1e15", "10000000", "steps (accepted and rejected) before the run stops with an error", ""},
    {"simulation", "stall_window", "integer 0..1e15", "10000",
     "event-driven: every this many steps a run must have advanced 1e-6 `t_end` (else it stops as stalled) and be on "
     "pace to reach `t_end` within 20 times the steps `max_steps` leaves (else it stops now); 0 never", ""},
    {"simulation", "energy_check", "bool", "true",
     "fixed-step integrators: stop (`energy_gain`, exit 3) at the end of the first step whose kinetic plus potential energy is above "
     "the start's by more than the system had to move with (its kinetic energy at the start and the potential energy "
     "lost since) plus the work of lifting every body by `distance_tolerance`: the step is too long for the scene; "
     "false lets such a run go on (to look at a scheme's artifact)", ""},
    {"simulation", "island_clocks", "bool or `auto`", "`auto`",
     "event-driven: islands on their own clocks (docs/guide.md): where every body is a free body above a ground "
     "halfspace, groups of bodies that cannot meet before a sync time (a bound from their energy) each run their own "
     "event loop; trajectory.csv then holds the output rows only, no rows at events, and an event's energies are its "
     "group's. `auto`: in models of at least 48 velocities (8 free bodies)", ""},
    {"simulation", "law", "", "`anitescu-potra`", "the impact law (`--law` overrides it)", ""},
    {"simulation", "seed", "integer 0..9e15", "0", "seed of every random choice (`--seed` overrides it)", ""},
    {"simulation", "contact", "map", "", "the event loop's settings, below", ""},
    {"simulation", "integrator", "", "`event-driven`",
     "how the scene is integrated (`--integrator` overrides it); see docs/guide.md", ""},

    {"simulation.contact", "distance_tolerance", "number > 0", "1e-6",
     "m; a contact with phi below this touches; no contact may sink deeper. An approaching open contact joins an impact only if simultaneous to the event precision (gap at most 1e-6 of this plus its approach speed times 1e-14 max(1, t) s, the event location's precision); one farther away has its own impact", ""},
    {"simulation.contact", "velocity_tolerance", "number > 0", "1e-6",
     "m/s; normal or tangential speeds below this count as zero (closed, sticking); in 3-D a sliding contact's friction opposes (u_t + this x s) / |u_t + this x s|, s the direction its slide started in, so a slide from rest does not follow the direction of rounding-sized velocities; at every event the 3-D frictional contacts touching with a slip below it are first brought exactly to rest (a projection in the kinetic metric, which never adds energy), unless nearly dependent contacts would make that projection move a touching contact by more than 10 times this", ""},
    {"simulation.contact", "v_zeno", "number >= 0", "1e-3",
     "m/s; the Zeno rule: an impact whose fastest approach is slower than this is plastic and closes every touching contact of its impact set, logged as `zeno`: where every frictional contact of it also slips slower than this, they are brought to rest (J_n v+ = 0, and J_t v+ = 0 where mu > 0, by the projection that never adds energy; law `close`; a frictionless contact keeps its slip; a contact whose rest would need a pulling impulse is released and lifts off instead); where one slides faster, friction within its cone cannot stop it, or where a released contact would approach, the plastic Anitescu-Potra impact (e = 0) resolves it (law `plastic`); no normal impulse is ever negative; 0 turns the rule off", ""},
    {"simulation.contact", "detect_rest", "bool", "true",
     "after an event, or a step of the smooth phase, that leaves every velocity and acceleration too small to move "
     "anything by more than the two tolerances before `t_end`, log `rest` and skip to `t_end` (the remaining rows equal the resting state); false "
     "integrates to the end", ""},
    {"simulation.contact", "sleep", "bool", "true",
     "in a model of 48 velocities or more (8 free bodies), a contact island that passes the `detect_rest` test on its own (and again with its velocities zeroed) falls asleep: its velocities are set to zero, its contacts keep their modes, and nothing about it is computed until an event reaches it (a guard of a contact with one of its bodies fires, an impact changes its velocities, or a contact joins it to an island the event reached) or a `step` moves every body; logged as `sleep` and `wake`; needs `detect_rest`; false integrates every island to the end", ""},
    {"simulation.contact", "max_events", "integer 1..1e15", "100000", "events after which the run stops with an error", ""},
    {"simulation.contact", "baumgarte", "number >= 0", "20",
     "1/s; rate at which the drift of closed contacts (phi and their velocities) decays", ""},
    {"simulation.contact", "broadphase_margin", "number >= 0", "0.05",
     "m; contacts of a (body, solid) pair whose bounding spheres are farther apart than this cost one sphere test, "
     "not one distance each; it changes speed, never results", ""},
    {"simulation.contact", "broadphase_horizon", "number >= 0", "0.02",
     "m; the event loop follows only the contacts of (body, solid) pairs within `broadphase_margin` plus this of each "
     "moving body, and selects them again where a phase starts or a body has moved this far: a pile's guards and event "
     "sets then grow with its bodies, not with its pairs; it changes speed, never results; 0 follows every contact", ""},
    {"simulation.contact", "slow_slip_speed", "number >= 0", "1e-4",
     "m/s; a 3-D frictional contact that slides slower than half this at the start of a smooth phase (from rest among them) holds its friction -mu lambda_n s along the direction s its slide started in, instead of turning it with the slip, until the slip reaches this speed (an event, after which the slide follows its slip) or stops; a slide that follows its slip holds its direction likewise from where it slows below 0.4 of this speed (an event) until it stops or speeds up again; following a slip of speed |u_t| turns friction at a rate mu lambda_n / (m |u_t|), too stiff to integrate where a slip stays slow (a pile's wedged spheres: steps of 1e-7 s). Held friction opposes the slip (never adds energy) and does at most 2 mu lambda_n times this less work per second than Coulomb's; 0 makes every slide follow its slip", ""},
    {"simulation.contact", "painleve_step", "number >= 0", "1e-4",
     "s; where no contact modes are consistent even after impacts without collision (a frictional pile's nearly unloaded sliding contacts), "
     "where the step size collapses while M(q) is well conditioned (a coin rolling flat on its rim, its contact point whirling ever faster), "
     "or where 16 events in a row without a collision come within this time of the first (guards that chatter: a slide from rest whose slip "
     "start gave up, a contact that sticks, slips and is closed by the Zeno rule over and over), the run crosses the instant with steps of at "
     "most this size of the Anitescu-Potra time-stepping scheme (O(h) error, each logged as `step`; chatter that comes back within 16 steps' "
     "time doubles the steps taken, up to 64) and the event loop starts again; 0 stops the run there instead", ""},
    {"simulation.contact", "painleve_step_max", "number >= 0", "8e-4",
     "s; where the tries at consistent modes between `painleve_step` steps keep failing (63 steps in a stretch, the tries 1, 2, 4 ... "
     "32 steps apart), each further failed try doubles the step, up to this size (a step closes the open contacts it would run past "
     "within itself); at or below `painleve_step` every step keeps that size", ""},
    {"simulation.contact", "friction_cone", "`circular` or `polygon`", "circular",
     "3-D friction of every impact law, the Zeno rule's plastic impact and `time-stepping` steps: `circular`, isotropic Coulomb friction, "
     "the polygon's answer taken on by Newton's method to the circular cone's, to 1e-10 of the impulses at stake; "
     "`polygon`, the polygon of `friction_directions` itself (its answer depends on how the scene is turned about each "
     "normal); planar scenes are exact either way", ""},
    {"simulation.contact", "friction_directions", "integer 3..64", "8",
     "directions of the polyhedral friction cone of stick checks, of `friction_cone: polygon` and of the polygon whose "
     "answer starts the circular cone's; planar scenes use the exact two", ""},

    {"output", "directory", "string", "`out/<name>`", "where `run` writes; `-o DIR` overrides it", ""},
    {"output", "precision", "integer 3..17", "12", "significant digits in CSV files", ""},
};

bool applies(const SceneKey& k, std::string_view variant) {
  if (k.only.empty() || variant.empty()) return true;
  std::string_view rest = k.only;
  while (!rest.empty()) {
    const size_t space = rest.find(' ');
    if (rest.substr(0, space) == variant) return true;
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
  }
  return false;
}

// A declared setting as a row of the table.
SceneKey setting_row(const std::string& section, const SettingSpec& spec) {
  return {section, spec.key, setting_type_text(spec), spec.fallback, spec.meaning, ""};
}

// `names` as the table writes a choice of words: "`a`, `b`, `c`".
std::string word_list(const std::vector<std::string>& names) {
  return setting_type_text(choice_setting("", names, ""));
}

// The fixed rows with the registered laws' and integrators' keys in place: each one's section row
// under `simulation` (after `contact` for laws, after `integrator` for integrators), and its
// section's rows before `output`.
std::vector<SceneKey> build_keys() {
  std::vector<SceneKey> out;
  std::vector<SceneKey> sections;
  for (const LawDescriptor* law : law_registry()) {
    if (law->settings.empty()) continue;
    for (const SettingSpec& spec : law->settings)
      if (spec.in_scene) sections.push_back(setting_row("simulation." + law->name, spec));
  }
  for (const IntegratorDescriptor* d : integrator_registry())
    for (const SettingSpec& spec : d->settings)
      if (spec.in_scene) sections.push_back(setting_row("simulation." + d->section, spec));
  for (const SceneKey& k : kKeys) {
    if (k.section == "output" && !sections.empty()) {
      out.insert(out.end(), sections.begin(), sections.end());
      sections.clear();
    }
    out.push_back(k);
    if (k.section != "simulation") continue;
    if (k.key == "law") out.back().type = word_list(law_names());
    if (k.key == "contact")
      for (const LawDescriptor* law : law_registry())
        if (!law->settings.empty())
          out.push_back({"simulation", law->name, "map", "", "the `" + law->name + "` law's settings, below", ""});
    if (k.key == "integrator") {
      std::vector<std::string> names;
      for (const IntegratorDescriptor* d : integrator_registry()) names.push_back(d->name);
      out.back().type = word_list(names);
      for (const IntegratorDescriptor* d : integrator_registry())
        if (!d->section.empty())
          out.push_back({"simulation", d->section, "map", "", "the `" + d->name + "` integrator's settings, below", ""});
    }
  }
  return out;
}

}  // namespace

const std::vector<SceneKey>& scene_keys() {
  // Rebuilt when a law is registered after the first call (tests, programs that add laws).
  static std::vector<SceneKey> keys;
  static size_t laws = 0;
  if (keys.empty() || laws != law_registry().size()) {
    keys = build_keys();
    laws = law_registry().size();
  }
  return keys;
}

std::vector<std::string_view> scene_sections() {
  std::vector<std::string_view> out;
  for (const SceneKey& k : scene_keys())
    if (out.empty() || out.back() != k.section) out.push_back(k.section);
  return out;
}

std::vector<std::string> section_keys(std::string_view section, std::string_view variant) {
  std::vector<std::string> out;
  for (const SceneKey& k : scene_keys())
    if (k.section == section && applies(k, variant)) out.emplace_back(k.key);
  return out;
}

std::string section_table(std::string_view section) {
  std::ostringstream s;
  s << "| key | type | default | meaning |\n| --- | --- | --- | --- |\n";
  for (const SceneKey& k : scene_keys()) {
    if (k.section != section) continue;
    s << "| `" << k.key << "` |";
    for (std::string_view cell : {k.type, k.fallback, k.meaning}) s << (cell.empty() ? "" : " ") << cell << " |";
    s << '\n';
  }
  return s.str();
}

void expect_section(const Field& f, std::string_view section, std::string_view variant) {
  f.expect_map(section_keys(section, variant));
}

}  // namespace impactsim
