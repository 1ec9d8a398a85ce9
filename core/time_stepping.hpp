#pragma once
// The Gavrea-Anitescu-Potra family of semi-implicit time-stepping schemes ("Convergence of a class
// of semi-implicit time-stepping schemes for nonsmooth rigid multibody dynamics"), with gamma = alpha:
//   alpha = 1    Anitescu-Potra's semi-implicit Euler scheme,
//   alpha = 1/2  the trapezoidal variant (constraints on (v^l + v^{l+1}) / 2).
// Each step of size h, geometry frozen at q^l:
//   1. the active set: contacts with phi(q^l) <= active_epsilon (the paper's is 0);
//   2. one LCP in the weighted velocity y = v^{l+1,alpha} (core/velocity_step.hpp) with
//      b = M v^l + alpha h ((1 - alpha) k(t_l) + alpha k(t_{l+1})), k = tau - C(q^l, v^l) explicit,
//      pins as the joints nu;
//   3. v^{l+1} = (y - (1 - alpha) v^l) / alpha and q^{l+1} = q^l + h Gamma(q^l) y;
//   4. collision detection (§4): an inactive contact with phi(q^{l+1}) <= 0 is located at t* on the
//      cubic Hermite interpolant of q, the inelastic impact LCP (alpha = 1, h = 0) is solved at q-
//      over the contacts touching there, and the run restarts at t* (the event-driven convention,
//      not the paper's snap to the grid). Restitution is not part of the scheme.
// Rows report q^{h,alpha} and v^{h,alpha} (fixed_step.hpp): for alpha < 1 the end-of-step v^l may
// alternate in sign while the weighted velocity converges (Examples 9.1, 9.2).
#include "core/fixed_step.hpp"

namespace impactsim {

// Runs system under system.time_stepping.
RunStats simulate_time_stepping(const System& system, const State& initial, const RunCallbacks& callbacks,
                                const StepSink& steps = {}, const ExternalForce& force = {});

}  // namespace impactsim
