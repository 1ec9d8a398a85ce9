#pragma once
// The impact a scene describes: at its initial state if a contact touches and approaches there,
// else the first impact of its motion, found by simulating until then.
#include "core/system.hpp"

namespace impactsim {

struct ImpactState {
  double t = 0.0;
  Eigen::VectorXd q;
  Eigen::VectorXd v_minus;  // the pre-impact velocity
  ContactSpace space;       // every touching contact, separating ones too; ids = system contact indices
};

// The impact set at (q, v) at time t, if a contact of it approaches: every touching contact, less
// those that approach but are not simultaneous with the others (core/event_handling.hpp).
bool impact_at(const System& system, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, ContactSpace& space);

// False if no impact happens before system.simulation.t_end. The event loop runs through lift-off,
// stick and slip events until its first impact. Which law the loop hands that impact to does not
// change the state before it: the Anitescu-Potra law resolves it (a law that cannot, such as Routh
// with too few steps, must not stop the search for the impact it is then sampled on).
bool find_first_impact(const System& system, const State& initial, ImpactState& out);

}  // namespace impactsim
