#include "scenes/scene_simulation.hpp"

#include "impact/laws.hpp"
#include "numerics/short_number.hpp"
#include "scenes/scene_integrators.hpp"
#include "scenes/scene_keys.hpp"
#include "scenes/scene_settings.hpp"

namespace impactsim {
namespace {

// Bounds of the integer keys: counts held as long, and seeds (YAML integers are read through
// double: whole numbers up to 9e15).
constexpr long kMaxCount = 1'000'000'000'000'000;
constexpr long kMaxSeed = 9'000'000'000'000'000;

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
  if (f.has("sleep")) c.sleep = f.child("sleep").boolean();
  if (f.has("max_events")) {
    c.max_events = f.child("max_events").integer_in(1, kMaxCount);
  }
  if (f.has("slow_slip_speed")) c.slow_slip_speed = f.child("slow_slip_speed").non_negative();
  if (f.has("painleve_step")) c.painleve_step = f.child("painleve_step").non_negative();
  if (f.has("painleve_step_max")) c.painleve_step_max = f.child("painleve_step_max").non_negative();
  if (f.has("friction_cone")) {
    const std::string cone = f.child("friction_cone").text();
    if (cone != "circular" && cone != "polygon") f.child("friction_cone").fail("must be `circular` or `polygon`, not '" + cone + "'");
    c.circular_cone = cone == "circular";
  }
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
  if (f.has("island_clocks")) {
    const Field clocks = f.child("island_clocks");
    s.island_clocks = clocks.text() == "auto" ? IslandClocks::automatic : clocks.boolean() ? IslandClocks::on : IslandClocks::off;
  }
  // Steps no longer than max_step that cannot reach t_end within max_steps would leave the event
  // loop to stall, or to step through with fixed steps: refused here instead.
  if (s.ode.max_step > 0 && !(s.t_end / s.ode.max_step <= static_cast<double>(s.max_steps)))
    f.child("max_step").fail("t_end / max_step = " + short_number(s.t_end / s.ode.max_step) +
                             " steps, more than simulation.max_steps = " + std::to_string(s.max_steps) +
                             ": the run could not reach t_end; raise max_step (0: no limit) or max_steps");
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

}  // namespace

void read_simulation_sections(const Field& root, Scene& scene) {
  System& system = scene.system;
  const Field simulation = root.require("simulation");
  system.simulation = read_simulation(simulation);
  system.contact = read_contact_settings(simulation.child("contact"));
  read_law(simulation, scene);
  scene.laws = read_law_settings(simulation, system.contacts.contacts());
  read_integrator(simulation, root.child("constraints"), system);
  if (root.has("output")) scene.output = read_output(root.child("output"));
}

}  // namespace impactsim
