#pragma once
// What the guards that read forces did at a step's own rate evaluations, so that the step's scan
// can read its interior without solving for forces.
//
// A step's scan reads every guard at its quarter points (core/event_locate.hpp). The lift-off,
// slip and Painleve guards (reads_forces) read the mode's forces, and those three interior readings
// were three force solves of a step's ten: a fifth of a frictional 10-sphere pile's landing. The
// step's stages solved for the same forces at states along it (Dormand and Prince's six, at 1/5,
// 3/10, 4/5, 8/9 and twice at the end, and those of any attempt the controller rejected): where
// each lift-off and slip guard stays on one side of its arming level at every one of them and at
// the step's start, its interior readings are taken on that side and the forces are not solved
// there. Above the level it is armed and cannot have fired; at or below it, unarmed, it can neither
// arm nor fire. The quarter points would see otherwise only where the guard went across and back
// between two stages (the largest gap is half a step, from 3/10 to 4/5, where the quarter points
// look once). A Painleve guard is judged at the step's readings alone: its margin falling to a
// thousandth of its start and back within one step would take the force system near singular
// inside it, where the stages' forces, and so the step's error estimate, grow with 1/margin.
// The caller confirms the side at the readings that solve for forces (the step's end, an event's
// time) and scans the step again in full where one does not keep it.
#include <vector>

#include <Eigen/Core>

#include "core/contact_forces.hpp"
#include "core/guards.hpp"

namespace impactsim {

class ForceGuardSamples {
 public:
  // The samples of a new step follow, for a phase of `guards` guards.
  void restart(size_t guards);
  // A rate evaluation of the phase found `forces` (its mode's, at the evaluated state).
  void note(const ContactModel& contacts, const std::vector<Guard>& guards, const ModeForces& forces);
  // Whether every force guard kept one side of its arming level at the samples and in g_start
  // (every guard at the step's start), and an unarmed one where that side is at or below it. False
  // without samples of this step.
  bool steady(const std::vector<Guard>& guards, const Eigen::VectorXd& g_start) const;
  // Whether a reading of every guard (g, with forces) has each force guard on the side steady()
  // found at the step's start (g_start).
  bool keeps_side(const std::vector<Guard>& guards, const Eigen::VectorXd& g_start, const Eigen::VectorXd& g) const;
  // Over an interior reading g of the guards that read no forces, each force guard's value for the
  // scan: its least sampled value above its level, its greatest at or below it.
  void fill(const std::vector<Guard>& guards, const Eigen::VectorXd& g_start, Eigen::VectorXd& g) const;

 private:
  Eigen::VectorXd lo_, hi_;  // per guard, the least and greatest value at the samples (force guards)
  bool noted_ = false;       // a sample of this step was taken
  bool valid_ = false;       // the samples were taken with the guards restart() was given
};

}  // namespace impactsim
