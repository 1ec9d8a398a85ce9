#pragma once
// What a run reports besides its rows: events, statistics, and the callbacks that receive them.
// Shared by the event loop and the fixed-step integrators.
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "core/state.hpp"

namespace impactsim {

enum class EventKind {
  impact,   // an impact law resolved approaching contacts
  zeno,     // an impact slower than v_zeno closed its contacts (the Zeno rule)
  iwc,      // an impact without collision, resolving a Painleve configuration
  liftoff,  // closed contacts opened
  stick,    // sliding contacts stuck
  slip,     // sticking contacts began to slide, or sliding ones reversed
  rest,     // the system came to rest; the run skips to t_end
  step,     // a time-step through an instant with no consistent contact modes or chattering guards (core/painleve_step.hpp)
  sleep,    // an island came to rest and froze (core/sleep.hpp)
  wake,     // an event reached sleeping islands, or a step moves every body: they move again
};

// The name events.csv uses: "impact", "zeno", "iwc", "liftoff", "stick", "slip", "rest", "step", "sleep",
// "wake".
std::string_view event_kind_name(EventKind kind);
std::ostream& operator<<(std::ostream& out, EventKind kind);
// impact, zeno and iwc: events that change the velocity.
bool is_impact(EventKind kind);

// t with 12 significant digits, for messages.
std::string format_time(double t);

// A row whose state or energies are not finite: what a scene whose scale overflows double precision
// produces (gravity, masses or speeds too large), never a result. SimulationError (not_finite),
// naming what is not finite and the scene's keys that set the scale, for every row not finite.
void check_finite_row(const Sample& row);

struct Event {
  double t = 0.0;                 // [s]
  EventKind kind = EventKind::impact;
  std::vector<int> contacts{};    // the contacts involved (indices into the system's contacts)
  std::string law{};              // the impact law (impacts only)
  double kinetic_before = 0.0;    // [J]
  double kinetic_after = 0.0;     // [J]
  std::vector<double> impulse_n{};  // per entry of `contacts`, N s (impacts only)
  std::vector<double> normal_velocity_after{};  // per entry of `contacts`, J_n v+ in m/s (> 0: separating; impacts only)
  std::vector<int> ordering{};      // sequential and propagative laws: the contacts in the order resolved
  // Per entry of `contacts`, its tangent_dim friction impulse components in the contact's tangent
  // basis, N s (impacts resolved by a law and plastic Zeno impacts; empty for other events).
  std::vector<double> impulse_t{};
  // A Zeno `close` (a projection to rest): the kinetic energy stopping each of its rows alone would
  // remove, the sum over rows of b_k^2 / (2 W_kk) [J]; 0 for every other event.
  double rowwise_loss = 0.0;
  double duration = 0.0;  // a `step`'s length [s], the time it crossed off the exact path; 0 for every other event
};

// A Zeno close whose projection removed more than this many times its rowwise_loss held nearly
// dependent contacts at once (two contacts a hair apart), and took energy that the slow contact
// velocities it was meant to stop do not carry. Over the close events of the shipped scenes the
// ratio is at most 13 where the rows are independent, and 500 to 6e7 where they are not.
constexpr double kDependentCloseRatio = 100.0;
// Whether e is such a close.
bool closes_dependent_rows(const Event& e);

// The statistics of one run, whichever integrator ran it.
struct RunStats {
  long steps = 0;                   // accepted steps (fixed-step: every step)
  long rejected_steps = 0;          // event-driven: rejected Dormand-Prince steps
  long evaluations = 0;             // event-driven: right-hand side (dynamics) evaluations
  long solves = 0;                  // fixed-step: LCPs or QPs solved
  long samples = 0;                 // output rows delivered
  long events = 0;
  long impacts = 0;                 // events that changed the velocity (is_impact)
  double min_phi = 0.0;             // the deepest penetration seen [m]
  double max_residual = 0.0;        // fixed-step: worst LCP residual or QP gap bound
  double max_pin_drift = 0.0;       // fixed-step with pins: largest |phi| of a pin row [m]
  double max_energy_gain = 0.0;     // fixed-step: largest rise of kinetic + potential energy above the start's [J]
  double variation_v = 0.0;         // fixed-step: total variation of v^l
  double variation_weighted = 0.0;  // fixed-step: total variation of v^{l,alpha}
};

struct RunCallbacks {
  SampleSink sample;                        // rows at the output times
  SampleSink event_sample;                  // rows just before and just after each event (may be empty)
  std::function<void(const Event&)> event;  // may be empty
  std::function<bool()> stop;               // asked after every event (fixed-step: every step); true ends the run
  // A run that stops early (SimulationError) first hands the last state it reached here (may be empty).
  SampleSink stopped;
};

}  // namespace impactsim
