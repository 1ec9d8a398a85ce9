#include "scenes/scene_integrators.hpp"

#include "core/kinematics.hpp"
#include "core/integrators.hpp"
#include "scenes/scene_keys.hpp"
#include "scenes/scene_settings.hpp"

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
    pin.point_a = f.has("point") ? f.child("point").position() : Vec3::Zero();
    pin.body_b = f.has("to") ? body(f.child("to")) : -1;
    if (pin.body_b == pin.body_a) f.child("to").fail("a body cannot be pinned to itself");
    // By default the pin holds the point where it starts.
    const Vec3 x = point_position(kin, pin.body_a, pin.point_a);
    const Vec3 start = pin.body_b < 0 ? x : Vec3(kin.R[pin.body_b].transpose() * (x - kin.p[pin.body_b]));
    pin.point_b = f.has("at") ? f.child("at").position() : start;
    pins.push_back(pin);
  }
  return pins;
}

void read_integrator(const Field& simulation, const Field& constraints, System& system) {
  if (simulation.has("integrator")) {
    const Field name = simulation.child("integrator");
    std::vector<std::string> names;
    for (const IntegratorDescriptor* d : integrator_registry()) names.push_back(d->name);
    system.integrator = find_integrator(choose_word(name, names))->kind;
  }
  // Every integrator's section is read, whichever runs: --integrator may choose another.
  for (const IntegratorDescriptor* d : integrator_registry()) {
    if (d->section.empty()) continue;
    const Field section = simulation.child(d->section);
    const Settings settings = read_settings(section, d->settings, {});
    if (const SettingProblem problem = d->apply(settings, system)) fail_at(section, problem);
  }
  if (!system.pins.empty() && system.integrator == Integrator::event_driven)
    constraints.elements().front().fail("pins need integrator: time-stepping or drumwright (the event loop takes joints in the body tree only)");
}

}  // namespace impactsim
