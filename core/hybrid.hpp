#pragma once
// The hybrid event loop: smooth phases with a fixed contact mode, integrated by Dormand-Prince 5(4);
// events found by root finding on guard functions along the dense output; impacts handed to an
// impact law; contact modes chosen by the acceleration LCP after every event.
//
// Guards (an event fires when an armed guard goes from > 0 to <= 0; a guard is armed once it has
// been positive in the phase, so a contact that just separated cannot fire again at once):
//   open contact      phi                      -> impact
//   closed contact    lambda_n                 -> liftoff
//   sticking contact  mu lambda_n - |lambda_t| -> slip
//   sliding contact   s . J_t v, s the slip direction at the phase's start -> stick
// Zeno: an impact whose fastest approach is below v_zeno closes every touching contact of its set
// (J_i v+ = 0, a projection that never adds energy) and is logged as `zeno`. Painleve: when the acceleration LCP has no
// solution, the impact law is applied at J_n v = 0 (an impact without collision, `iwc`).
// Rest: after an event that leaves the state a fixed point of the mode's ODE (to within the
// distance and velocity tolerances over the time left), the run logs `rest` and skips to t_end,
// every remaining row equal to that state.
#include <functional>
#include <string>
#include <vector>

#include "core/contact_dynamics.hpp"
#include "core/simulate.hpp"
#include "impact/impact_law.hpp"

namespace impactsim {

struct Event {
  double t = 0.0;
  std::string kind;            // impact, zeno, iwc, liftoff, stick, slip, rest
  std::vector<int> contacts;   // the contacts involved
  std::string law;             // the impact law (impacts only)
  double kinetic_before = 0.0;
  double kinetic_after = 0.0;
  std::vector<double> impulse_n;  // per entry of `contacts`, N s (impacts only)
  std::vector<int> ordering;      // sequential and propagative laws: the contacts in the order resolved
};

struct HybridCallbacks {
  SampleSink sample;                          // rows at the output times
  SampleSink event_sample;                    // rows just before and just after each event (may be empty)
  std::function<void(const Event&)> event;    // may be empty
  std::function<bool()> stop;                 // asked after every event; true ends the run there (may be empty)
};

struct HybridStats {
  long accepted_steps = 0;
  long rejected_steps = 0;
  long rhs_evaluations = 0;
  long samples = 0;
  long events = 0;
  long impacts = 0;
  double min_phi = 0.0;  // the deepest penetration seen at any accepted step or output row [m]
};

HybridStats simulate_hybrid(const Model& model, const ContactModel& contacts, const ImpactLaw& law,
                            const SimulationSettings& settings, const ContactSettings& contact_settings,
                            const State& initial, Rng& rng, const HybridCallbacks& callbacks);

}  // namespace impactsim
