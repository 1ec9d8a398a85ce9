#pragma once
// The event loop's working data (core/hybrid.cpp and its stages core/phase.hpp,
// core/near_follow.hpp): the contact stage, the current smooth phase, the vectors reused between
// steps, and the run's statistics. Plain data; each function says what it reads and writes.
#include <stdexcept>
#include <vector>

#include <Eigen/Core>

#include "core/contact_data.hpp"
#include "core/contact_forces.hpp"
#include "core/force_guard_samples.hpp"
#include "core/guards.hpp"
#include "core/painleve_step.hpp"
#include "core/sleep.hpp"
#include "core/system.hpp"

namespace impactsim {

// The current smooth phase: its contact modes and guards.
struct Phase {
  explicit Phase(int contacts) : modes(ContactModes::all_open(contacts)), closed(contacts, false) {}
  ContactModes modes;
  std::vector<bool> closed;       // modes.is_closed, per contact
  std::vector<int> closed_set;    // the awake closed contacts, ascending: what each evaluation computes (none: free flight)
  std::vector<Guard> guards;
  Eigen::VectorXd g_prev;         // the guards at the last scanned time
  std::vector<double> phi_start;  // phi at the phase's start, for the impact guards' floors (near contacts)
  bool scanned = false;           // a step of this phase was scanned without an event
  ForceGuardSamples samples;      // the force guards at the rate evaluations of the step being taken
};

// Vectors the loop reuses so that its per-step path does not allocate.
struct LoopScratch {
  explicit LoopScratch(const Model& model) : row_kin(model), guard_kin(model), near_kin(model), reading_kin(model) {}
  Eigen::VectorXd q, v;       // the state being evaluated, split
  Eigen::VectorXd x_tmp;      // a state interpolated on the dense output
  Eigen::VectorXd x_before;   // the state just before an event
  Eigen::VectorXd rate;       // the phase's rate at its start
  Kinematics row_kin;         // an output row's kinematics
  Kinematics guard_kin;       // the poses one impact guard is read at
  Eigen::VectorXd g_one;      // every guard, where one of them needs them all
  Eigen::VectorXd q_out, v_out;
  std::vector<int> need;      // contacts whose Jacobians a phase's start needs
  std::vector<bool> resting_open;  // open through the last phase and touching at its start (choose_modes)
  Eigen::VectorXd q_reading;  // q of the last reading of every guard (a step's start, for the near set)
  Eigen::VectorXd q_step;     // q_reading at the start of the step being scanned
  Eigen::VectorXd q_check;    // a configuration the near set is checked at
  Kinematics near_kin;        // its poses
  Kinematics reading_kin;     // the poses of q_reading or q_step
  std::vector<int> near_before, over;
};

// The loop's working data: the contact stage, the phase, scratch and the statistics. Plain data;
// the functions below say what they use.
struct LoopData {
  explicit LoopData(const System& sys)
      : contact(sys.model, sys.contacts), phase(sys.contacts.size()), scratch(sys.model),
        sleep(make_sleep(sys.model, sys.contacts, sys.contact)) {}
  ContactData contact;
  ModeForces forces;
  Phase phase;
  LoopScratch scratch;
  Sleep sleep;                // the islands at rest (core/sleep.hpp)
  std::vector<double> reach;  // each body's reach for the near set [m] (see keep_near)
  StepStart step_start;       // the last Painleve step's impulses (core/painleve_step.hpp)
  RunStats stats;
  long collisions = 0;  // impact events (approach faster than v_zeno): ChatterWatch resets on them
  double fastest_collision = 0.0;  // their fastest approach since the event loop cleared it [m/s]
};

// Thrown by a reading of every guard where a body has left its near-set budget (core/near_follow.hpp),
// before anything but the poses was computed there.
struct NearSetLeft : std::runtime_error {
  NearSetLeft() : std::runtime_error("a body left the contacts' near set inside a reading of the guards") {}
};

}  // namespace impactsim
