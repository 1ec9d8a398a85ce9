#pragma once
// What the fixed-step (time-stepping) integrators share: the step loop, their state and the rows
// they write. A step from t_l to t_{l+1} reports rows at the output times it passes, with q linear
// between q^l and q^{l+1} and v the velocity that holds on the step: the continuous-time
// reconstruction (q^{h,alpha}, v^{h,alpha}) of Gavrea, Anitescu and Potra (4.9), (4.12).
#include <functional>
#include <string>
#include <vector>

#include "core/contact_data.hpp"
#include "core/events.hpp"
#include "core/pin.hpp"
#include "core/system.hpp"

namespace impactsim {

// Generalized forces added to the model's own (gravity and velocity products), N or N m per entry
// of v, at (t, q, v). For tests and scripted loads; scenes have none.
using ExternalForce = std::function<void(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& tau)>;

// One completed step: end time, q^{l+1}, v^{l+1} and the weighted velocity v^{l+1,alpha} (equal to
// v^{l+1} for alpha = 1 and for Drumwright's scheme).
struct StepRecord {
  double t = 0.0;
  const Eigen::VectorXd& q;
  const Eigen::VectorXd& v;
  const Eigen::VectorXd& v_weighted;
};
using StepSink = std::function<void(const StepRecord&)>;

// Where a fixed-step run reports, and the applied forces it adds.
struct FixedStepIO {
  const RunCallbacks& callbacks;
  const StepSink& steps;      // may be empty
  const ExternalForce& force; // may be empty
};

// Writes the output rows of a fixed-step run.
class StepOutput {
 public:
  explicit StepOutput(const Model& model) : q_(model.nq), kin_(model) {}
  void first(const Model& model, const SampleSink& sink, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  // The step from (t0, q0) to (t1, q1) on which the velocity is v.
  void step(const Model& model, const SimulationSettings& settings, const SampleSink& sink, double t0,
            const Eigen::VectorXd& q0, double t1, const Eigen::VectorXd& q1, const Eigen::VectorXd& v);
  long rows() const { return next_; }

 private:
  void emit(const Model& model, const SampleSink& sink, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

  long next_ = 0;
  Eigen::VectorXd q_;
  Kinematics kin_;  // the rows' energies, without an allocation per row
};

// The energy account of a fixed-step run, kept at the end of every step (not at the output rows:
// a batch run writes only its last, and a compass gait under Drumwright's step that had gained
// 1e161 J was found only at t_end). Contacts, pins and joint damping only ever take energy away,
// so kinetic plus potential energy rises above the start's only by the scheme's own error (a fast
// spin under an explicit gyroscopic term, a stiff stack at a long step). available() is what the
// system had to move with: its kinetic energy at the start and the potential energy it has lost
// since, the most kinetic energy a scheme that adds none can show [J].
class EnergyAccount {
 public:
  explicit EnergyAccount(const Model& model) : kin_(model) {}
  // The energies at (q, v); the first call is the start.
  void add(const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& v);
  double gain() const { return energy_ - (kinetic0_ + potential0_); }  // at the last add [J]
  double available() const { return kinetic0_ + potential0_ - potential_min_; }

 private:
  Kinematics kin_;
  bool started_ = false;
  double kinetic0_ = 0.0, potential0_ = 0.0, potential_min_ = 0.0, energy_ = 0.0;
};

// How messages name a fixed-step integrator's step: "the step h = 0.01 s
// (simulation.drumwright.h)", or simulation.time_stepping.h.
std::string step_text(Integrator scheme, double h);

// The state of a fixed-step run and its bookkeeping.
struct FixedStepRun {
  FixedStepRun(const System& system, const State& initial);
  double t = 0.0;
  Eigen::VectorXd q, v;
  Eigen::VectorXd v_weighted;  // v^{l,alpha} of the last step (v^0 before the first)
  RunStats stats;
  StepOutput output;
  EnergyAccount energy;
};

// Scratch both schemes' steps use: the contact stage, the pins, applied forces.
struct FixedStepScratch {
  FixedStepScratch(const System& system);
  ContactData contact;
  Kinematics pin_kin;
  PinState pins;
  Eigen::VectorXd tau;
};

// Joint damping enters both fixed-step schemes explicitly, through C at the step's starting
// velocity: on its own it maps v to (I - h M^-1 D) v, which grows without bound once an eigenvalue
// of h M^-1 D exceeds 2 (D the joints' damping on the diagonal, M at q). Empty where h is stable at
// q, else why not: the factor, the joint that takes most of the unstable mode and the longest
// stable step [s].
std::string explicit_damping_problem(const Model& model, const Eigen::VectorXd& q, double h);

// The work of lifting every body by `distance` against gravity [J]: how much energy a scheme that
// pushes contacts out of penetration may add (by distance_tolerance: the energy check's allowance).
double lift_work(const Model& model, double distance);

// The loop both schemes share: step(run, hs) advances the run by hs = h (the last step shortened
// to end at t_end; a step may end early at a collision), until t_end or callbacks.stop. The
// scheme's name prefixes its messages, its step key names the step. Throws SimulationError on a
// non-finite state, and where the energy at the end of a step rises above the start's by more
// than available() plus the work of lifting every body by the distance tolerance (energy_gain): a
// result that no longer describes the scene. Applied
// forces (io.force) may add energy, so runs with them are not checked; nor runs with
// simulation.energy_check false.
RunStats run_fixed_steps(const System& system, const State& initial, double h, const FixedStepIO& io,
                         Integrator scheme, const std::function<void(FixedStepRun&, double hs)>& step);

// k = tau(t) - C, C from `body` (at the run's (q, v)).
void applied_forces(const FixedStepIO& io, const FixedStepRun& run, const BodyDynamics& body, double t,
                    Eigen::VectorXd& tau, Eigen::VectorXd& k);
// Pin rows at (q, v) into scratch.pins; records the drift.
void update_pins(const System& system, const Eigen::VectorXd& q, const Eigen::VectorXd& v, FixedStepScratch& scratch,
                 RunStats& stats);
// The contacts with phi <= threshold in `frames`; records the deepest phi.
std::vector<int> touching(const std::vector<ContactFrame>& frames, double threshold, RunStats& stats);
// Flags of the contacts in `set`, for the contact stage's `need`.
std::vector<bool> contact_flags(int contacts, const std::vector<int>& set);
// Ends a step at t1 with (q1, v1), v_on_step the velocity that held on it (the weighted velocity):
// writes its rows, adds to the statistics, makes (q1, v1) the run's state (q1 and v1 are left
// holding the old state) and reports the step.
void finish_step(const System& system, const FixedStepIO& io, FixedStepRun& run, double t1, Eigen::VectorXd& q1,
                 Eigen::VectorXd& v1, const Eigen::VectorXd& v_on_step);

}  // namespace impactsim
