#pragma once
// The guard functions of one smooth phase. An event fires when an armed guard goes from > 0 to
// <= 0; a guard is armed once it has been positive in the phase, so a contact that just separated
// cannot fire again at once. Per contact, by its mode at the phase's start:
//   open      impact   phi - floor                       [m]
//   stick     liftoff  lambda_n                          [N]
//             slip     mu lambda_n - |lambda_t|          [N]
//   slide     liftoff  lambda_n                          [N]
//             stick    s . J_t v, s the phase's slip     [m/s]  (mu > 0 only: frictionless contacts
//                                                               always slide)
//             painleve painleve_margin                   [m/s^2/N]  (mu > 0 only)
//             follow   hold_speed - |J_t v|              [m/s]  (held slides only: ContactModes::held)
//             hold     |J_t v| - kHoldFraction hold_speed [m/s]  (3-D slides that follow their slip)
// A frictional slide can approach a Painleve configuration: the normal acceleration a unit of
// normal force buys falls to zero and the force needed to hold the contact grows without bound
// (a 3-D compass gait's sliding foot reached 1.4e7 N as the step size collapsed to 1e-14 s). The
// painleve guard fires where that margin reaches zero, and the event resolves it as the papers do:
// the slide has no consistent forces, and an impact without collision jams it. The approach ends
// in a finite time with an unbounded force, which no step can follow to zero: the guard fires at
// kPainleveFraction of the margin the phase started with (its floor), where the force has grown
// about a thousandfold, and the jam takes the rest as an impulse.
// An open contact's impact guard measures phi from just below where the phase starts (its floor),
// so a contact that has just separated (phi ~ 0) is armed at once and a hop shorter than a step
// still fires; the floor costs at most kPhiMargin of penetration. Where the contact bounced (left
// the surface faster than the velocity tolerance) and rose above its starting level, the event is
// placed where it comes back down to that level (core/event_locate.cpp), so a bounce never ends
// lower than it began.
#include <limits>
#include <string_view>
#include <vector>

#include "core/contact_forces.hpp"
#include "core/state.hpp"

namespace impactsim {

enum class GuardKind { impact, liftoff, slip, stick, painleve, follow, hold };
constexpr int kGuardKinds = static_cast<int>(GuardKind::hold) + 1;
// "impact", "liftoff", "slip", "stick", "painleve", "follow", "hold": for messages.
std::string_view guard_kind_name(GuardKind kind);

struct Guard {
  int contact = 0;
  GuardKind kind = GuardKind::impact;
  bool armed = false;    // has been positive in this phase: only an armed guard fires
  double floor = 0.0;    // impact guards: phi is measured from here [m]; stick and painleve guards: see set_*_floors
  bool passing = false;  // impact guards of gated contacts: behind the other contact this phase
  bool bounced = false;  // impact guards: the contact touched at the start, separating faster than the velocity tolerance
  bool risen = false;    // impact guards: phi was above the level it started at, at a scanned time after the start
  double arm_above = 0.0;  // armed once the guard exceeds this (force guards: see set_force_floors)
};

constexpr double kGuardInactive = std::numeric_limits<double>::infinity();
constexpr double kPhiMargin = 1e-13;  // [m]
constexpr double kPainleveFraction = 1e-3;
// A following slide is held from this fraction of hold_speed down (below the fraction that
// hold_slow_slides holds at an event, so the event the guard starts holds it).
constexpr double kHoldFraction = 0.4;
static_assert(kHoldFraction < kHeldSlipFraction, "the event a hold guard fires must hold the slide");
constexpr double kSlipNoise = 1e-12;  // [m/s]
// phi above a contact's starting level by less than this is rounding, not a rise [m].
constexpr double kLevelNoise = 1e-15;

// Contacts with only_ahead_of (collision/contact.hpp) pass through the surface while behind the
// other contact, and may come out ahead of it still below the surface.
inline bool gated(const ContactModel& contacts, int i) { return contacts.contact(i).only_ahead_of >= 0; }
// While open, contact i's point is not ahead of its only_ahead_of contact's (along that contact's
// tangent): it cannot impact. Needs the poses in kin and the other contact's frame.
bool behind(const ContactModel& contacts, const ContactModes& modes, const Kinematics& kin,
            const std::vector<ContactFrame>& frames, int i);

// The guards of a phase in `modes`, contact by contact over `followed` (ascending: the near set's
// contacts, every one that can touch; collision/broadphase.hpp), with each impact guard's floor and
// passing flag from phi at the phase's start (`phi`, exact). None is armed yet. `guards` keeps its
// storage.
void phase_guards(const ContactModel& contacts, const ContactModes& modes, const std::vector<double>& phi,
                  double distance_tolerance, const std::vector<int>& followed, std::vector<Guard>& guards);

// What the guards read at one state, filled by the caller: frames (exact within the broadphase's
// margin); with closed contacts also the Jacobians, v and the mode's forces.
struct GuardInputs {
  const Kinematics& kin;
  const std::vector<ContactFrame>& frames;
  const ContactJacobians& jac;
  const Eigen::VectorXd& v;
  const ModeForces& forces;
};

// Every guard's value at one state; kGuardInactive for an impact guard whose contact is behind.
// Without forces (with_forces false: in.forces is not read) the guards that read them get NaN.
void evaluate_guards(const ContactModel& contacts, const ContactModes& modes, const std::vector<Guard>& guards,
                     const GuardInputs& in, Eigen::VectorXd& g, bool with_forces = true);

// The guards that read the mode's forces: lift-off, slip and Painleve.
inline bool reads_forces(GuardKind kind) {
  return kind == GuardKind::liftoff || kind == GuardKind::slip || kind == GuardKind::painleve;
}
// A lift-off or slip guard's value from the mode's forces (evaluate_guards' own).
double contact_force_guard(const ContactModel& contacts, const Guard& guard, const ModeForces& forces);

// A gated contact's guard that reads kGuardInactive is behind: it passes from here on this phase.
void note_passing(std::vector<Guard>& guards, const Eigen::VectorXd& g);
// A contact the phase holds closed without load (a ball touching its resting neighbour) has a
// force of rounding size: its lift-off and slip guards would fire on the noise. They arm only once
// above 1e-9 of the phase's largest normal force (g: the guards at the phase's start) plus 1e-12 N.
void set_force_floors(std::vector<Guard>& guards, const Eigen::VectorXd& g);
// A slide from rest (|s . J_t v| below velocity_tolerance at the phase's start) whose
// acceleration along s is nil keeps a slip of rounding size (1e-27 m/s in a 12-sphere pile): its
// stick guard s . J_t v would cross zero on the noise, every step, for ever. Such a stick guard
// fires where the slip has reversed by kSlipNoise instead (floor -kSlipNoise; g: the guards at the
// phase's start, which this adjusts to match). Slides with a real slip keep the exact zero.
void set_stick_floors(std::vector<Guard>& guards, double velocity_tolerance, Eigen::VectorXd& g);
// Painleve guards measure their margin from kPainleveFraction of its value at the phase's start
// (g: the guards there, which this adjusts to match).
void set_painleve_floors(std::vector<Guard>& guards, Eigen::VectorXd& g);
// Guards above their arm_above (0 for impact guards) at a scanned state are armed from then on.
void arm_guards(std::vector<Guard>& guards, const Eigen::VectorXd& g);

// How close to firing a guard may be at an event's time and still join it: the distance
// tolerance for impact guards, 0 for the others.
double guard_tolerance(const Guard& guard, double distance_tolerance);

// An open contact that was never armed (it started the phase touching) must not sink: that would
// be a missed impact. Throws SimulationError naming the contact.
void check_unarmed_penetration(const ContactModel& contacts, const std::vector<Guard>& guards, const Eigen::VectorXd& g,
                               double distance_tolerance, double t);

}  // namespace impactsim
