#include "scenes/scene_integrators.hpp"

#include "core/kinematics.hpp"
#include "scenes/scene_keys.hpp"

namespace impactsim {

std::vector<PinDef> read_pins(const Field& list, const Model& model, const Eigen::VectorXd& q) {
  std::vector<PinDef> pins;
  if (!list.defined()) return pins;
  Kinematics kin(model);
  update_kinematics(model, q, kin);
  for (const Field& f : list.elements()) {
    expect_section(f, "constraints");
    PinDef pin;
    pin.name = f.require("name").text();
    if (!valid_name(pin.name, ".-", true))
      f.child("name").fail(name_rule("constraint names use letters, digits, '_', '.' and '-'"));
    for (const PinDef& other : pins)
      if (other.name == pin.name) f.child("name").fail("duplicate constraint name '" + pin.name + "'");
    if (const std::string type = f.require("type").text(); type != "pin")
      f.child("type").fail("unknown constraint type '" + type + "' (known: pin)");
    auto body = [&](const Field& b) {
      const std::string name = b.text();
      if (name == "world") return -1;
      const int index = model.body_index(name);
      if (index < 0) b.fail("unknown body '" + name + "'");
      return index;
    };
    pin.body_a = body(f.require("body"));
    if (pin.body_a < 0) f.child("body").fail("the pinned body cannot be the world");
    pin.point_a = f.vec3_or("point", Vec3::Zero());
    pin.body_b = f.has("to") ? body(f.child("to")) : -1;
    if (pin.body_b == pin.body_a) f.child("to").fail("a body cannot be pinned to itself");
    // By default the pin holds the point where it starts.
    const Vec3 x = point_position(kin, pin.body_a, pin.point_a);
    const Vec3 start = pin.body_b < 0 ? x : Vec3(kin.R[pin.body_b].transpose() * (x - kin.p[pin.body_b]));
    pin.point_b = f.vec3_or("at", start);
    pins.push_back(pin);
  }
  return pins;
}

namespace {

void read_time_stepping(const Field& f, TimeSteppingSettings& s) {
  if (!f.defined()) return;
  expect_section(f, "simulation.time_stepping");
  if (f.has("scheme"))
    s.alpha = choose<double>(f.child("scheme"), {{"anitescu-potra", 1.0}, {"trapezoidal", 0.5}});
  if (f.has("h")) s.h = f.child("h").positive();
  if (f.has("active_epsilon")) s.active_epsilon = f.child("active_epsilon").non_negative();
}

void read_drumwright(const Field& f, DrumwrightSettings& s) {
  if (!f.defined()) return;
  expect_section(f, "simulation.drumwright");
  if (f.has("h")) s.h = f.child("h").positive();
  if (f.has("problem"))
    s.problem = choose<SoftProblem>(f.child("problem"), {{"lcp", SoftProblem::lcp}, {"min-norm-qp", SoftProblem::min_norm_qp}});
  if (f.has("cone"))
    s.cone = choose<FrictionConeKind>(f.child("cone"), {{"polyhedral", FrictionConeKind::polyhedral},
                                                       {"circular", FrictionConeKind::circular}});
  if (s.problem == SoftProblem::lcp && s.cone == FrictionConeKind::circular)
    f.child("cone").fail("the exact LCP takes a polyhedral cone; the circular cone needs problem: min-norm-qp");
  if (f.has("K_n")) s.K_n = f.child("K_n").non_negative();
  if (f.has("B_n")) s.B_n = f.child("B_n").non_negative();
  if (s.K_n == 0 && s.B_n == 0) f.fail("K_n and B_n cannot both be zero (the contact would exert no force)");
  if (f.has("B_t")) s.B_t = f.child("B_t").positive();
  if (f.has("K_pin")) s.K_pin = f.child("K_pin").non_negative();
  if (f.has("B_pin")) s.B_pin = f.child("B_pin").non_negative();
  if (s.K_pin == 0 && s.B_pin == 0) f.fail("K_pin and B_pin cannot both be zero (pins would hold nothing)");
  if (f.has("gdot_term")) s.gdot_term = f.child("gdot_term").boolean();
  if (f.has("zeta")) s.zeta = f.child("zeta").positive();
}

}  // namespace

void read_integrator(const Field& simulation, const Field& constraints, System& system) {
  if (simulation.has("integrator"))
    system.integrator = choose<Integrator>(simulation.child("integrator"), {{"event-driven", Integrator::event_driven},
                                                                           {"time-stepping", Integrator::time_stepping},
                                                                           {"drumwright", Integrator::drumwright}});
  read_time_stepping(simulation.child("time_stepping"), system.time_stepping);
  read_drumwright(simulation.child("drumwright"), system.drumwright);
  system.drumwright.friction_directions = system.contact.friction_directions;
  if (!system.pins.empty() && system.integrator == Integrator::event_driven)
    constraints.elements().front().fail("pins need integrator: time-stepping or drumwright (the event loop takes joints in the body tree only)");
}

}  // namespace impactsim
