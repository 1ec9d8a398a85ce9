#pragma once
// The mode choice at an event: the acceleration-level LCP (Pfeiffer and Glocker; Trinkle et al.)
// over the candidate contacts picks each one's mode, open, stick, or slide along a direction, for
// the smooth phase that follows (core/contact_forces.hpp holds the forces in a mode).
#include <string>
#include <vector>

#include "numerics/lcp.hpp"

#include "core/contact_forces.hpp"

namespace impactsim {

// At a lift-off or stick-slip event the acceleration LCP sits on its boundary (lambda_n = a_n = 0,
// or friction on the cone's edge with zero slip acceleration); these say which way a guard crossed
// (indexed by contact, may be empty), so the mode changes instead of the event firing again at once.
struct ModePreference {
  std::vector<bool> open;   // a lift-off guard fired
  std::vector<bool> slide;  // a sticking contact's friction guard fired
};

// The mode of each candidate contact (the others open; `modes` comes in holding the current modes,
// whose slip directions the contacts left open keep) by the acceleration LCP over the
// candidates, with polyhedral friction of friction_directions in 3-D. Returns false, with a
// diagnostic, if that LCP has no solution (Painleve): the caller resolves an impact without
// collision, and `modes` is then unspecified.
// From kBlockwiseFrom velocities on, with every candidate frictionless, the LCP is first solved at
// the support of the candidates `modes` holds closed (solve_at_support), by Lemke where that fails.
// lcp: Lemke's options (first_answer_only where the caller steps on rather than wait for fallbacks).
bool select_modes(const ContactModel& contacts, const ContactSettings& settings, const BodyDynamics& body,
                  const ContactJacobians& jac, const std::vector<int>& candidates, const ModePreference& preference,
                  ContactModes& modes, std::string& diagnostic, const LcpOptions& lcp = {});

}  // namespace impactsim
