#pragma once
// The near set the event loop follows (collision/broadphase.hpp, "The near set"): selected afresh
// where a phase starts, grown before a step's guards are read where a body moves far, and every
// contact followed where a reading finds a body beyond its budget after all. The contacts a set
// gains get the guards they would have had all along, so results never depend on it.
#include <Eigen/Core>

#include "core/loop_data.hpp"

namespace impactsim {

// The near set selected afresh at the poses kin, every body's reach the horizon
// (simulation.contact.broadphase_horizon; 0 follows every contact). Only where a phase starts: a
// contact that leaves the set loses its guards.
void narrow(const System& sys, LoopData& d, const Kinematics& kin);

// The guards of the contacts the near set gained since d.scratch.near_before, inserted in contact
// order with their values at the poses kin in g_prev, as if they had been followed all along.
void follow_added(const System& sys, LoopData& d, const Kinematics& kin);

// Every contact followed from the start of the step being scanned (d.scratch.q_step): where a
// reading found a body beyond its budget after all (NearSetLeft).
void follow_everything(const System& sys, LoopData& d);

// The near set's promise must hold at every reading of a step's guards. Before they are read, with
// x_end the step's end: where a body is past half its budget there, the set grows from the step's
// start (the poses of its last reading, d.scratch.q_reading, which g_prev holds), and the contacts
// it gains get their guards (follow_added); none is lost before the phase ends.
void keep_near(const System& sys, LoopData& d, const Eigen::VectorXd& x_end);

}  // namespace impactsim
