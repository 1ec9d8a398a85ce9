#pragma once
// A system to simulate, the library's entry point: the model, its contacts and pins, and the
// settings of every integrator. Plain data, like MuJoCo's mjModel: filled once (by the scene loader
// or a test), read by every stage, never changed by a run. simulate() (core/simulate.hpp) runs it.
#include <optional>
#include <string>
#include <vector>

#include "collision/contact.hpp"
#include "core/contact_data.hpp"
#include "core/events.hpp"
#include "core/integrator_settings.hpp"
#include "core/model.hpp"
#include "core/pin.hpp"
#include "core/state.hpp"
#include "impact/impact_law.hpp"

namespace impactsim {

struct System {
  Model model;
  ContactModel contacts;             // built for model.planar
  std::vector<PinDef> pins;          // fixed-step integrators only
  SimulationSettings simulation;
  ContactSettings contact;           // the event loop's tolerances, Zeno rule, friction polygon
  Integrator integrator = Integrator::event_driven;
  TimeSteppingSettings time_stepping;
  DrumwrightSettings drumwright;
};

// Which contacts are closed at (q, v): touching (phi within the distance tolerance) and neither
// approaching nor separating (|J_n v| <= 1e-6 max(1, |v|_inf)).
std::vector<bool> closed_contacts(const System& system, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

// A contact that starts deeper than kStartDepthTolerance distance tolerances: the contact solvers
// would push it out and add energy. Gated contacts (only_ahead_of) may start behind the surface.
constexpr double kStartDepthTolerance = 10;
struct Penetration {
  int contact = -1;
  double depth = 0.0;  // [m], > 0
};
// The deepest such contact at q, if any.
std::optional<Penetration> initial_penetration(const System& system, const Eigen::VectorXd& q);

// Bounds that keep a run finite in time and space: at most kMaxOutputRows rows, and for the
// fixed-step integrators at most simulation.max_steps steps. "" or what is exceeded and the keys
// that set it.
constexpr long kMaxOutputRows = 10'000'000;
std::string budget_problem(const System& system);

}  // namespace impactsim
