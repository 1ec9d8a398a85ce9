#pragma once
// The smooth phase at one state: what its ODE and its guards read (core/guards.hpp), and the rows
// the event loop writes. Each function works on the loop's data (core/loop_data.hpp) at the state
// it is given and leaves its results there.
#include <Eigen/Core>

#include "core/loop_data.hpp"

namespace impactsim {

// The contact stage for the phase's forces at (d.scratch.q, d.scratch.v): body dynamics, then the
// frames, J and Jdot v of the closed contacts only. With open_phi, first every near contact's phi
// through the broadphase (NearSetLeft where a body has left its near-set budget).
void closed_contact_data(const System& sys, LoopData& d, bool open_phi);

// The phase's ODE at x: false where the mode's forces cannot be found.
bool phase_rhs(const System& sys, LoopData& d, const Eigen::VectorXd& x, Eigen::VectorXd& dx);

// The phase's rate at the state in d.scratch, once d.forces holds the mode's forces there.
void phase_rate(const System& sys, const LoopData& d, Eigen::VectorXd& dx);

// What the guards read at x; true when d.forces then holds the mode's forces at x (false in free
// flight, and where they cannot be found).
bool guard_data_at_state(const System& sys, LoopData& d, const Eigen::VectorXd& x);

// The phase's guards from what guard_data_at_state left in d.
void evaluate_phase_guards(const System& sys, LoopData& d, Eigen::VectorXd& g);

// Every guard's value at x.
void guards_at_state(const System& sys, LoopData& d, const Eigen::VectorXd& x, Eigen::VectorXd& g);

// What the guards that read no forces (core/guards.hpp: reads_forces) read at x: the same phi,
// frames and Jacobians as guard_data_at_state, without the body dynamics or the mode's forces.
void kinematic_guard_data_at_state(const System& sys, LoopData& d, const Eigen::VectorXd& x);
// Every guard's value at x but those that read forces (NaN there), each to the bit as
// guards_at_state gives it.
void kinematic_guards_at_state(const System& sys, LoopData& d, const Eigen::VectorXd& x, Eigen::VectorXd& g);

// Guard k alone at x: guards_at_state's g[k] to the bit, reading one contact where it can, and
// solving for forces only where k reads them.
double guard_at_state(const System& sys, LoopData& d, const Eigen::VectorXd& x, int k);

// The deepest penetration so far (stats.min_phi), at the poses kin.
void record_min_phi(const System& sys, const ContactData& c, const Kinematics& kin, RunStats& stats);

// A row at (t, x) to sink (nothing without one), counted, its penetration recorded.
void emit(const System& sys, LoopData& d, const SampleSink& sink, double t, const Eigen::VectorXd& x);

// The penetration at x recorded without a row; d.scratch.row_kin then holds x's poses.
void track_penetration(const System& sys, LoopData& d, const Eigen::VectorXd& x);

// Open contacts that touch at the phase's start and separate faster than the velocity tolerance
// have bounced: their next impact is placed back at the level they left (core/guards.hpp). A
// contact that merely lifted off (starting at rest) keeps the margin's crossing, or its
// micro-hops at the edge of lift-off would each be an event. kin and frames: at the start (poses).
void mark_bounced(const System& sys, LoopData& d, const Kinematics& kin, const std::vector<ContactFrame>& frames,
                  const Eigen::VectorXd& x);

}  // namespace impactsim
