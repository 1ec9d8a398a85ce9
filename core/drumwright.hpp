#pragma once
// Drumwright's first-order constraint solver ("An Unconditionally Stable First-Order Constraint
// Solver for Multibody Systems"): every constraint is a stiff spring-damper in constraint space,
// integrated by implicit Euler, while (q, v) take a symplectic Euler step. Each step of size h,
// everything evaluated at (q0, v0) with one contact query:
//   rows: pins (K_pin, B_pin), then each contact touching at q0 (phi <= the distance tolerance,
//         so a body resting at phi = +1e-17 does not drop a step and pop back): its normal
//         (phi_n = min(phi, 0), K_n, B_n) and, with mu > 0, its tangents (K_t = 0, B_t: memoryless Coulomb);
//   lambda from impact/soft_constraints.hpp (the exact LCP or the paper's minimum-norm QP);
//   v1 = v0 + h M^-1 (G^T lambda + f),  q1 = q0 + h Gamma(q0) v1     ((36), (37)).
// f = tau - C(q0, v0). With gdot_term the rows carry the paper's -Mhat Gdot v0 (Mhat by a
// pseudo-inverse, since G may be rank deficient); digest §8.3 item 4 found it can destabilize long
// runs at coarse h, so it is a switch. No events: contacts enter when they penetrate, and at coarse
// h an impact is perfectly inelastic.
#include <vector>

#include "core/contact_dynamics.hpp"
#include "core/fixed_step.hpp"
#include "core/hybrid.hpp"
#include "core/pin.hpp"
#include "impact/soft_constraints.hpp"

namespace impactsim {

struct DrumwrightSettings {
  double h = 0.01;                 // [s]
  SoftProblem problem = SoftProblem::lcp;
  FrictionConeKind cone = FrictionConeKind::polyhedral;  // 3-D friction (planar scenes: the exact box)
  int friction_directions = 8;     // polygon of a 3-D polyhedral cone
  double K_n = 1e10, B_n = 1.0;    // contact normal [N/m], [N s/m]
  double B_t = 0.0;                // friction damper [N s/m]; 0 means the paper's 1e6 / h
  double K_pin = 1e15, B_pin = 1.0;
  bool gdot_term = true;
  double zeta = 0.0;               // min_norm_qp weight of |lambda_n|^2; 0 means the paper's 1 / h

  double tangent_damping() const { return B_t > 0 ? B_t : 1e6 / h; }
};

FixedStepStats simulate_drumwright(const Model& model, const ContactModel& contacts, const std::vector<PinDef>& pins,
                                   const SimulationSettings& settings, const ContactSettings& contact_settings,
                                   const DrumwrightSettings& scheme, const State& initial,
                                   const HybridCallbacks& callbacks, const StepSink& steps = {},
                                   const ExternalForce& force = {});

}  // namespace impactsim
