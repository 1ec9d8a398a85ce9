#pragma once
// The impacts of an event at a fixed configuration q: an impact law resolves each impact, island
// by island, until no touching contact approaches; every event is handed to `log` as it happens.
// Zeno: an impact whose fastest approach is below v_zeno is plastic and closes every contact of
// its set, logged as `zeno`. Where every frictional contact also slips slower than v_zeno, it
// brings them to rest (J_n v+ = 0, and J_t v+ = 0 where mu > 0) by the projection in the kinetic
// metric
//   v+ = v- - M^-1 J^T (J M^-1 J^T)^+ J v-,
// which never adds energy (`close`), over the contacts it need not pull on: one whose rest needs a
// negative normal impulse is released and lifts off, and its impulse is zero. Where one slides
// faster, friction cannot stop it within its cone, and where a released contact would approach,
// the plastic Anitescu-Potra LCP (e = 0) resolves the impact (`plastic`). No normal impulse is negative.
// Painleve: where the acceleration LCP has no consistent solution, an impact without collision
// (`iwc`) jams the sliding contacts by the Anitescu-Potra LCP's nonzero solution, whatever the law
// (impact/anitescu_potra.hpp, solve_without_collision).
#include <functional>
#include <vector>

#include "core/event_sets.hpp"
#include "numerics/lcp.hpp"

namespace impactsim {

using EventLog = std::function<void(const Event&)>;

// Whether the event loop steps where an impact fails: a model of kBlockwiseFrom velocities or more
// (a pile, whose large islands' LCPs can fail after minutes) with simulation.contact.painleve_step
// > 0. Elsewhere a failed impact ends the run (SimulationError, impact_failed).
bool steps_where_impacts_fail(const System& sys);

// Resolves impacts at (q, v) until no touching contact approaches; v becomes the post-impact
// velocity. `data` must hold compute_event_data's at (q, v) on entry, and is only read. Contacts
// flagged in `deferred` (deferred_contacts; empty: none) are left out of every impact set. False
// where an impact failed and the loop steps instead (steps_where_impacts_fail): v holds the
// impacts resolved before it, each logged. fastest_collision (where given) is raised to the
// fastest approach [m/s] of the collisions resolved by the law (not the Zeno rule's closes).
bool resolve_impacts(const System& system, const ImpactLaw& law, Rng& rng, double t, const ContactModes& modes,
                     const std::vector<bool>& deferred, Eigen::VectorXd& v, const ContactData& data,
                     const EventLog& log, double* fastest_collision = nullptr);


// Brings the contacts in `set` to rest by the projection in the kinetic metric,
// v+ = v - M^-1 J^T (J M^-1 J^T)^+ J v, which never adds energy: each contact's normal row, and its
// tangent rows where `tangential` says (empty: every contact's). Returns the impulses,
// rows_per_contact per contact in set's order, zero in the rows left out; `rowwise_loss`, if given,
// gets the energy stopping each row alone would remove, sum of b_k^2 / (2 W_kk) with b = J v
// (Event::rowwise_loss). M^-1 is applied block by block (numerics/mass_factor.hpp): a pile's
// velocities are a block of 6 per body, and a dense factorization per Zeno event would cost the
// cube of their number. Contacts that share no velocity are projected island by island
// (contact_islands), the same projection at the cost of each island's own.
Eigen::VectorXd project_to_rest(const ContactData& data, const std::vector<int>& set, const std::vector<bool>& tangential,
                                Eigen::VectorXd& v, double* rowwise_loss = nullptr);

// The sticking impact (solve_sticking_impact: every contact brought to rest, normal and tangential
// velocity both) over as many of `candidates` as can stick: a contact it would have to pull shut is
// left out (it separates), as in consistent(), the most pulling first. ok, with the contacts that
// stick in `sticking` (in candidates' order) and the impulses over them, where they all push
// inside their cones; not ok, v_plus = v, where one that pulls none lies outside its cone or none
// is left. From kBlockwiseFrom velocities on it is taken island by island (contact_islands): each
// island's jam moves its own velocities alone, and a contact left out changes only its island's
// (one decomposition over every candidate of a 50-box pile, 300 rows, again after each contact
// left out, was 29% of its run to t = 0.3 s). A single island is solved over every velocity.
ImpactResult stick_where_possible(const System& sys, const ContactData& data, const std::vector<int>& candidates,
                                  const Eigen::VectorXd& v, std::vector<int>& sticking);

// Painleve: an impact without collision, whatever the law. The laws resolve approach (Routh's
// process, the sequential and propagative orderings all start from J_n v < 0 and return the zero
// impulse here); the jam that stops the slip is the Anitescu-Potra LCP's nonzero solution, reached
// by a virtual approach far below the velocity tolerance, so that the contacts stay candidates.
// Where that LCP's answer is the zero impulse, to within the virtual approach (an earlier jam left
// the contacts sliding at the virtual approach, which its polygon allows), the candidates are
// brought to rest by the sticking impact instead (impact/anitescu_potra.hpp), leaving out any it
// would have to pull shut; without it the same Painleve slide would come back unchanged.
// In a model of kBlockwiseFrom velocities or more the LCP is solved island by island (one over a
// 50-box pile's whole touching set ran for minutes), with Lemke's `options`, and where it fails
// with painleve_step > 0 the call returns false, v kept, for the event loop to step through;
// otherwise a failure throws SimulationError (impact_failed).
bool apply_impact_without_collision(const System& sys, const ContactData& data, double t, const std::vector<int>& set,
                                    const std::vector<int>& candidates, Eigen::VectorXd& v, const EventLog& log,
                                    const LcpOptions& options = {});

}  // namespace impactsim
