#pragma once
// The Gavrea-Anitescu-Potra family of semi-implicit time-stepping schemes ("Convergence of a class
// of semi-implicit time-stepping schemes for nonsmooth rigid multibody dynamics"), with gamma = alpha:
//   alpha = 1    Anitescu-Potra's semi-implicit Euler scheme,
//   alpha = 1/2  the trapezoidal variant (constraints on (v^l + v^{l+1}) / 2).
// Each step of size h, geometry frozen at q^l:
//   1. the active set: contacts with phi(q^l) <= active_epsilon (the paper's is 0);
//   2. one LCP in the weighted velocity y = v^{l+1,alpha} (impact/velocity_step.hpp) with
//      b = M v^l + alpha h ((1 - alpha) k(t_l) + alpha k(t_{l+1})), k = tau - C(q^l, v^l) explicit,
//      pins as the joints nu;
//   3. v^{l+1} = (y - (1 - alpha) v^l) / alpha and q^{l+1} = q^l + h Gamma(q^l) y;
//   4. collision detection (§4): an inactive contact with phi(q^{l+1}) <= 0 is located at t* on the
//      cubic Hermite interpolant of q, the inelastic impact LCP (alpha = 1, h = 0) is solved at q-
//      over the contacts touching there, and the run restarts at t* (the event-driven convention of
//      digest §7 item 7, not the paper's snap to the grid). Restitution is not part of the scheme.
// Rows report q^{h,alpha} and v^{h,alpha} (fixed_step.hpp): for alpha < 1 the end-of-step v^l may
// alternate in sign while the weighted velocity converges (Examples 9.1, 9.2).
#include <vector>

#include "core/contact_dynamics.hpp"
#include "core/fixed_step.hpp"
#include "core/hybrid.hpp"
#include "core/pin.hpp"

namespace impactsim {

struct TimeSteppingSettings {
  double alpha = 1.0;            // 1 anitescu-potra, 0.5 trapezoidal
  double h = 1e-3;               // [s]
  double active_epsilon = 0.0;   // [m] contacts with phi(q^l) <= this are in the step's LCP
};

FixedStepStats simulate_time_stepping(const Model& model, const ContactModel& contacts, const std::vector<PinDef>& pins,
                                      const SimulationSettings& settings, const ContactSettings& contact_settings,
                                      const TimeSteppingSettings& scheme, const State& initial,
                                      const HybridCallbacks& callbacks, const StepSink& steps = {},
                                      const ExternalForce& force = {});

}  // namespace impactsim
