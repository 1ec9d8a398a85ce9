#pragma once
// What happens at an event of the hybrid loop, at a fixed configuration q: impacts (an impact law,
// or the Zeno rule), then the choice of the next phase's contact modes by the acceleration LCP,
// with an impact without collision where that LCP has no solution (Painleve). Every event is
// handed to `log` as it happens.
//
// Contact sets at the event (event-loop design notes): a contact touches when phi is within the
// distance tolerance (and a gated contact is not behind); it impacts when it touches and
// approaches faster than the velocity tolerance; the impact set is every touching contact, as in the
// papers, since the others are coupled to the approaching ones through M^-1 (an impulse elsewhere
// can turn a separating contact round; the laws decide whether it takes part).
// Simultaneity: an open contact that touches and approaches takes part in this event only if it
// reaches contact within the event's precision (simultaneous_contact); one still a few nm or um
// away is deferred to its own guard's crossing, so a lift-off or slip that comes first is not
// skipped and its impulse is not drawn early.
// Zeno: an impact whose fastest approach is below v_zeno is plastic and closes every contact of
// its set, logged as `zeno`. Where every frictional contact also slips slower than v_zeno, it
// brings them to rest (J_n v+ = 0, and J_t v+ = 0 where mu > 0) by the projection in the kinetic
// metric
//   v+ = v- - M^-1 J^T (J M^-1 J^T)^+ J v-,
// which never adds energy (`close`); where one slides faster, friction cannot stop it within its
// cone, and the plastic Anitescu-Potra LCP (e = 0) lands it sliding (`plastic`).
// Painleve: where the acceleration LCP has no consistent solution, an impact without collision
// (`iwc`) jams the sliding contacts by the Anitescu-Potra LCP's nonzero solution, whatever the law
// (impact/anitescu_potra.hpp, solve_without_collision).
#include <functional>
#include <vector>

#include "core/event_locate.hpp"
#include "core/system.hpp"

namespace impactsim {

using EventLog = std::function<void(const Event&)>;

// The frames an event reads at kin's poses: exact for every contact that can touch (its broadphase
// bound at most max(broadphase_margin, distance_tolerance)) and for the contacts a gate refers to
// (only_ahead_of); elsewhere phi is that bound, which is above the distance tolerance, so every
// decision on touching is the one the exact phi gives, and the rest of such a frame is stale (a
// pile's contacts grow as its bodies squared, and only a few dozen are near).
// Only the contacts of `near` are computed (the others cannot touch while it holds, and their
// frames are left as they were).
void compute_event_frames(const System& system, const Kinematics& kin, const Broadphase& broadphase, const NearSet& near,
                          std::vector<ContactFrame>& frames);
// The margin within which an event's frames are exact: max(broadphase_margin, distance_tolerance).
double event_margin(const ContactSettings& settings);

// What an event reads at (q, v): body dynamics, compute_event_frames, and the Jacobians of the
// touching contacts. q does not change during an event, so these hold for every impact of it; only
// mode selection needs C and Jdot v at the new velocity.
void compute_event_data(const System& system, const ContactModes& modes, const Eigen::VectorXd& q,
                        const Eigen::VectorXd& v, ContactData& data);

// The contacts that touch at data's frames (phi within the distance tolerance; a gated contact
// not behind), less those flagged in `deferred` (empty: none). Only data.near's contacts are
// looked at, here and in every set an event forms.
std::vector<bool> touching(const System& system, const ContactModes& modes, const ContactData& data,
                           const std::vector<bool>& deferred);

// Whether a contact phi [m] from touching, with normal velocity vn [m/s] (negative approaching), is
// part of an event at time t: it is no farther than its approach covers in the event location's
// time precision (1e-12 max(1, t) s, core/event_locate.hpp) plus 1e-6 distance tolerances (the
// guards' margins and rounding).
bool simultaneous_contact(double phi, double vn, double t, const ContactSettings& settings);

// The open contacts that touch and approach at (q, v) but are not simultaneous with the event at
// t: they keep their own events. data: compute_event_data's at (q, v).
std::vector<bool> deferred_contacts(const System& system, const ContactModes& modes, const ContactData& data,
                                    const Eigen::VectorXd& v, double t);

// Resolves impacts at (q, v) until no touching contact approaches; v becomes the post-impact
// velocity. `data` is scratch; its body dynamics must be those at (q, v) on entry. Contacts flagged
// in `deferred` (deferred_contacts; empty: none) are left out of every impact set.
void resolve_impacts(const System& system, const ImpactLaw& law, Rng& rng, double t, const ContactModes& modes,
                     const std::vector<bool>& deferred, Eigen::VectorXd& v, ContactData& data, const EventLog& log);

// The modes of the phase after an event at (q, v) in which `fired` guards fired (none at the
// start); an impact without collision (changing v) where no consistent contact forces exist.
// Deferred contacts stay open and out of every set. Where impacts without collision do not
// help either, false (modes undefined) if simulation.contact.painleve_step > 0, for the caller to
// step through (core/painleve_step.hpp), else a SimulationError (no_contact_forces).
// `resting_open` (empty: none) flags the contacts that were open through the phase before the
// event and touching at its start (one that lifted off and stayed at the surface): the
// acceleration LCP closes such a contact with no load as readily as it leaves it open, and it
// stays open then.
bool choose_modes(const System& system, double t, const std::vector<FiredGuard>& fired, const std::vector<bool>& deferred,
                  Eigen::VectorXd& v, ContactModes& modes, ContactData& data, ModeForces& forces, const EventLog& log,
                  const std::vector<bool>& resting_open = {});

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
