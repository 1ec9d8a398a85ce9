#pragma once
// A time-step through an instant where no contact modes are consistent.
//
// The event loop's smooth phases need contact forces that the acceleration LCP and the circular
// cone agree on (core/contact_forces.hpp, core/slip_start.hpp). In a frictional pile a few
// nearly unloaded sliding contacts can leave no such modes even after impacts without collision
// (the polygon's forces pull once the slips are made consistent with the circle, and opened they
// sink). The papers' remedy, an impact without collision, has nothing to jam there; instead the
// run crosses the instant with one step of Anitescu and Potra's semi-implicit scheme (the
// time-stepping integrator's alpha = 1 step, core/time_stepping.hpp), whose velocity LCP always
// has a solution, and the event loop starts again at its end. The event loop steps the same way
// where its guards chatter (core/hybrid.cpp, ChatterWatch). Its error is that scheme's, O(h):
// the step is logged (`step` in events.csv) so that a run says where it left the exact path.
//
// Over the contacts touching at q (phi within the distance tolerance, a gated contact not
// behind), with b = M v - h C(q, v):
//   M y - J_n^T c_n - J_t^T c_t = b, the polyhedral Coulomb law on [J_n; J_t] y (core/velocity_step.hpp),
//   v1 = y, q1 = q + h Gamma(q) y.
// The problem is solved island by island (contacts that share no moving body apart): in a model of
// kBlockwiseFrom velocities or more first in the circular cone directly, else (or where that
// fails) by the polygon's LCP refined into the circular cone, and where that refinement fails,
// with the polygon's friction, the scheme's own. A touching contact the step would leave deeper
// than half the distance tolerance (but not deeper than 10) is lifted back to it through the
// positions alone (a split impulse): v1 = y, q1 = q + h Gamma(q) (y + y_p).
// The active set's J_n y >= 0 holds their gap to first order. Where a contact would sink deeper
// than the distance tolerance at q1 (and deeper than at q by more than 1e-3 of the tolerance), an
// open one ran past its collision within the step: it joins the active set with the room its gap
// leaves, J_n y >= -phi(q) / h (Anitescu and Potra's gap term), so that the step closes it (an
// inelastic collision within the step, as the scheme's own active set makes one), and the step is
// solved again at its size, for at most 4 such rounds. Halving the step until it ended before
// the collision instead (each halving a whole solve) took a frictionless 50-sphere pile's 1,376
// steps 2,865 solves, 1,489 of them halvings, where its spheres fall onto the pile. Where an
// active contact sinks (the state has no precision left), the step halves, down to 1e-6 h; below
// that it fails (ok false).
#include <string>
#include <vector>

#include "core/contact_data.hpp"
#include "core/events.hpp"
#include "core/system.hpp"

namespace impactsim {

// Each contact's impulses at the last step [N s], in its frame: normal, then its two tangents.
// Consecutive steps of a pile press the same contacts about as hard, so where a model of
// kBlockwiseFrom velocities or more solves an island in the cone, Newton starts from them (a
// contact the last step did not press starts from its normal impulse alone). On the 50-box pile's
// islands of about 120 contacts Newton took 6 to 12 iterations from the normal impulses alone,
// each a dense decomposition of 360 rows.
struct StepStart {
  double t = -1.0;                      // the time the last step ended [s] (< 0: none)
  std::vector<Eigen::Vector3d> r;       // per contact
  std::vector<char> known;              // per contact: r holds its last step's impulses (empty: none)
};

struct PainleveStep {
  double h = 0.0;                  // the step taken [s] (the one asked for, or a halving of it)
  Eigen::VectorXd q1, v1;          // the state at its end
  std::vector<int> active;         // the contacts of its LCP: those touching at q, and those it closes
  Eigen::VectorXd impulse_n;       // per active contact, N s
  Eigen::VectorXd impulse_t;       // per active contact, its tangents' (2 per contact in 3-D), N s
  int lcp_variables = 0;           // of the LCPs it solved (0: every island solved in the cone directly)
  bool ok = true;
  std::string diagnostic;          // why not
};

// One step of at most h from (q, v). data is scratch (its broadphase serves the gap check).
// start (optional): the impulses of a step that ended at q, read as Newton's start and replaced by
// this step's.
PainleveStep painleve_step(const System& system, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double h,
                           ContactData& data, StepStart* start = nullptr);

// The `step` event of a step taken at time t from velocity v: its active contacts, their impulses,
// kinetic energy before and after (M at the step's start, in data.body).
Event painleve_step_event(double t, const PainleveStep& step, const Eigen::VectorXd& v, const ContactData& data);

}  // namespace impactsim
