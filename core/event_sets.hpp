#pragma once
// Which contacts an event involves (event-loop design notes): a contact touches when phi is within
// the distance tolerance (and a gated contact is not behind); it impacts when it touches and
// approaches faster than the velocity tolerance; the impact set is every touching contact, as in
// the papers, since the others are coupled to the approaching ones through M^-1 (an impulse
// elsewhere can turn a separating contact round; the laws decide whether it takes part).
// Simultaneity: an open contact that touches and approaches takes part in this event only if it
// reaches contact within the event's precision (simultaneous_contact); one still a few nm or um
// away is deferred to its own guard's crossing, so a lift-off or slip that comes first is not
// skipped and its impulse is not drawn early.
#include <vector>

#include "core/contact_forces.hpp"
#include "core/system.hpp"

namespace impactsim {

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

// The contacts touching() flags, ascending.
std::vector<int> touching_contacts(const System& system, const ContactModes& modes, const ContactData& data,
                                   const std::vector<bool>& deferred);
// Those of them approaching faster than the velocity tolerance, at v.
std::vector<int> impacting(const System& system, const ContactModes& modes, const ContactData& data,
                           const std::vector<bool>& deferred, const Eigen::VectorXd& v);
// Those of them not separating at v: the candidates of mode selection and of the Zeno projection.
std::vector<int> touching_not_separating(const System& system, const ContactModes& modes, const ContactData& data,
                                         const std::vector<bool>& deferred, const Eigen::VectorXd& v);

// Whether a contact phi [m] from touching, with normal velocity vn [m/s] (negative approaching), is
// part of an event at time t: it is no farther than its approach covers in the event location's
// time precision (1e-12 max(1, t) s, core/event_locate.hpp) plus 1e-6 distance tolerances (the
// guards' margins and rounding).
bool simultaneous_contact(double phi, double vn, double t, const ContactSettings& settings);

// The open contacts that touch and approach at (q, v) but are not simultaneous with the event at
// t: they keep their own events. data: compute_event_data's at (q, v).
std::vector<bool> deferred_contacts(const System& system, const ContactModes& modes, const ContactData& data,
                                    const Eigen::VectorXd& v, double t);

}  // namespace impactsim
