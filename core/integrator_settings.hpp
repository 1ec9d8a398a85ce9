#pragma once
// Which integrator runs a system, and the settings of the two fixed-step schemes it is
// cross-checked against (core/time_stepping.hpp, core/drumwright.hpp). Plain data.
#include <string_view>

#include "core/soft_constraints.hpp"

namespace impactsim {

enum class Integrator { event_driven, time_stepping, drumwright };
// "event-driven", "time-stepping", "drumwright": the scene key's words.
std::string_view integrator_name(Integrator integrator);

struct TimeSteppingSettings {
  double alpha = 1.0;            // 1 anitescu-potra, 0.5 trapezoidal
  double h = 1e-3;               // [s]
  double active_epsilon = 0.0;   // [m] contacts with phi(q^l) <= this are in the step's LCP
};

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

}  // namespace impactsim
