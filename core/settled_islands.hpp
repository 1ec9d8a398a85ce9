#pragma once
// The contact islands an event leaves alone.
//
// An event changes the contact modes only where something happened: a guard fired, an impact
// changed velocities, a contact came into touch or started to separate. Contact islands
// (contact_islands: contacts joined through the trees they move) share no velocity, so an island
// none of that reached is still in the mode its phase integrated, at a state its own guards kept
// consistent. Choosing its modes again would give them back in exact arithmetic; in rounding it
// re-solves its acceleration LCP (in a box pile often a degenerate one, where Lemke ends on a ray
// and the proximal-point fallback repeats it), re-projects its slow slips to rest (moving its
// velocities by up to the velocity tolerance) and may pick another of a degenerate LCP's
// solutions: work and perturbations that an island no event reached should not get. The event
// loop keeps such an island's modes (core/event_handling.hpp, choose_modes).
#include <vector>

#include "core/contact_data.hpp"
#include "core/contact_forces.hpp"
#include "core/event_locate.hpp"
#include "core/event_sets.hpp"
#include "core/sleep.hpp"
#include "core/system.hpp"

namespace impactsim {

// Per contact, whether it is a candidate of the event's mode choice (touching_not_separating at v,
// less `deferred`) in an island of candidates whose trees (M's diagonal blocks) none of these reach:
// a velocity that differs between v_before (the phase's end) and v (after the event's impacts);
// a contact of a `fired` guard; a candidate `modes` holds open (coming into touch); a contact
// `modes` holds closed that is no longer a candidate (separating). The last two reach nothing
// where both of the contact's bodies sleep (`sleep`, core/sleep.hpp): an open contact between
// resting bodies stays as it rested. Such a candidate is closed in `modes` or dormant. Empty where none is settled, and below kBlockwiseFrom velocities (a small model's
// modes are chosen whole, as its recorded outputs were computed, and nothing is looked at).
// data: the event's frames, J of the touching contacts and M's blocks.
std::vector<bool> settled_contacts(const System& system, const ContactModes& modes, const ContactData& data,
                                   const std::vector<bool>& deferred, const std::vector<FiredGuard>& fired,
                                   const Eigen::VectorXd& v_before, const Eigen::VectorXd& v, const Sleep& sleep = {});

}  // namespace impactsim
