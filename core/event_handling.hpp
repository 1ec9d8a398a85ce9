#pragma once
// What happens at an event of the hybrid loop, at a fixed configuration q: impacts
// (core/impacts.hpp, over the sets of core/event_sets.hpp), then the choice of the next phase's
// contact modes by the acceleration LCP (core/contact_modes.hpp), with an impact without collision
// where that LCP has no solution (Painleve); and rest. Every event is handed to `log` as it happens.
#include <vector>

#include "core/event_locate.hpp"
#include "core/event_sets.hpp"
#include "core/impacts.hpp"
#include "core/system.hpp"
#include "numerics/lcp.hpp"

namespace impactsim {

// What one mode choice may spend: Lemke's options for its LCPs, and how many impacts without
// collision it may take before it gives up (each followed by another choice).
struct ChoiceLimits {
  LcpOptions lcp;
  int impacts_without_collision = 3;
};

// The modes of the phase after an event at (q, v) in which `fired` guards fired (none at the
// start); an impact without collision (changing v) where no consistent contact forces exist.
// `data` holds compute_event_data's at q on entry (its frames and poses are read as they are; its
// velocity stages are computed again at v).
// Deferred contacts stay open and out of every set. Where impacts without collision do not
// help either, false (modes undefined) if simulation.contact.painleve_step > 0, for the caller to
// step through (core/painleve_step.hpp), else a SimulationError (no_contact_forces).
// `resting_open` (empty: none) flags the contacts that were open through the phase before the
// event and touching at its start (one that lifted off and stayed at the surface): the
// acceleration LCP closes such a contact with no load as readily as it leaves it open, and it
// stays open then. `settled` (empty: none) flags the contacts of islands the event left alone
// (core/settled_islands.hpp): they keep their modes and their slow slips, and only the other
// candidates' modes are chosen and judged, unless an impact without collision changes every
// touching velocity. `forces` holds the chosen contacts' forces (every closed contact's where
// nothing was kept); the kept ones' are not computed. `limits`: what the choice may spend.
bool choose_modes(const System& system, double t, const std::vector<FiredGuard>& fired, const std::vector<bool>& deferred,
                  Eigen::VectorXd& v, ContactModes& modes, ContactData& data, ModeForces& forces, const EventLog& log,
                  const std::vector<bool>& resting_open = {}, const std::vector<bool>& settled = {},
                  const ChoiceLimits& limits = {});

// Rest: with v = 0 and vdot = 0 in the current mode the state is a fixed point of the phase's ODE,
// and every guard (phi, lambda, friction margin) is a function of the state alone, so nothing
// happens until t_end. "Zero" is what a skip to t_end cannot notice: over the remaining time T,
// |v| T and |vdot| T^2 / 2 within the distance tolerance and |vdot| T within the velocity
// tolerance. (vdot is not exactly 0: Baumgarte terms still pull the last ~1e-11 m of drift.)
// `closed` flags the modes' closed contacts. Leaves the dynamics at (q, v) in data.
bool at_rest(const System& system, const ContactModes& modes, const std::vector<bool>& closed, double t,
             const Eigen::VectorXd& q, const Eigen::VectorXd& v, ContactData& data, ModeForces& forces);

// The `rest` event at time t: the closed contacts, kinetic energy from data.body.M.
Event rest_event(double t, const ContactModes& modes, const Eigen::VectorXd& v, const ContactData& data);

}  // namespace impactsim
