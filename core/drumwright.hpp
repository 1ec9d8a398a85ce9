#pragma once
// Drumwright's first-order constraint solver ("An Unconditionally Stable First-Order Constraint
// Solver for Multibody Systems"): every constraint is a stiff spring-damper in constraint space,
// integrated by implicit Euler, while (q, v) take a symplectic Euler step. Each step of size h,
// everything evaluated at (q0, v0) with one contact query:
//   rows: pins (K_pin, B_pin), then each contact touching at q0 (phi <= the distance tolerance,
//         so a body resting at phi = +1e-17 does not drop a step and pop back): its normal
//         (phi_n = min(phi, 0), K_n, B_n) and, with mu > 0, its tangents (K_t = 0, B_t: memoryless Coulomb);
//   lambda from core/soft_constraints.hpp (the exact LCP or the paper's minimum-norm QP);
//   v1 = v0 + h M^-1 (G^T lambda + f),  q1 = q0 + h Gamma(q0) v1     ((36), (37)).
// f = tau - C(q0, v0). With gdot_term the rows carry the paper's -Mhat Gdot v0 (Mhat by a
// pseudo-inverse, since G may be rank deficient); it can destabilize long runs at coarse h, so it
// is a switch. No events: contacts enter when they penetrate, and at coarse h an impact is
// perfectly inelastic.
#include "core/fixed_step.hpp"

namespace impactsim {

// Runs system under system.drumwright.
RunStats simulate_drumwright(const System& system, const State& initial, const RunCallbacks& callbacks,
                             const StepSink& steps = {}, const ExternalForce& force = {});

}  // namespace impactsim
