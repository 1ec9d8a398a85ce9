#pragma once
// The event loop's stages at one instant (core/event_loop.hpp drives them): an event's impacts and
// next modes, a Painleve step through, a phase's start, and the counting log. Each works on the
// loop's data (core/loop_data.hpp) and says what it reads and writes.
#include <vector>

#include <Eigen/Core>

#include "core/dopri5.hpp"
#include "core/dynamics.hpp"
#include "core/event_locate.hpp"
#include "core/impacts.hpp"
#include "core/loop_data.hpp"

namespace impactsim {

// M(q) at the state x is nearly singular (a compass gait doing the splits: its two point masses
// in line with the hip); a step that collapses there comes from the model's configuration.
bool nearly_singular_mass(const Model& model, const Eigen::VectorXd& x, MassMatrixCheck* check = nullptr);

// Throws the SimulationError that says why the integrator stopped.
[[noreturn]] void fail_integration(const Model& model, const Dopri5& ode, Dopri5::Status status);

// Counts, checks the event budget, and hands the event to the callback.
EventLog event_log(const System& sys, LoopData& d, const RunCallbacks& cb);

// An event at (t, x): impacts, then the next phase's modes; x's velocity is updated. Rows just
// before and just after are written only when something was logged. False where no contact modes
// are consistent (choose_modes) or an impact failed where the loop steps (resolve_impacts): the
// caller steps through. A large model's Lemke runs stop at 2 n + 100 pivots; its try after steps
// (`retry` false) takes first answers and no impact without collision (an island's LCP, mostly failing).
bool handle_event(const System& sys, const ImpactLaw& law, Rng& rng, const RunCallbacks& cb, const EventLog& log,
                  LoopData& d, double t, Eigen::VectorXd& x, const std::vector<FiredGuard>& fired, bool retry);

// One Painleve step of at most h from (t, x) (core/painleve_step.hpp), no further than t_end:
// logged, with the rows of the output times it passes (x linear on the step, as the time-stepping
// integrator reports them); t and x move to its end, d.scratch.x_before holds its start.
void step_through(const System& sys, const RunCallbacks& cb, const EventLog& log, LoopData& d, double& t,
                  Eigen::VectorXd& x, long& next, long last, double h_asked);

// A new phase from (t, x): the guards of the current modes are set up (floors from phi at the
// start) and evaluated, those already positive are armed, and the integrator restarts there.
void start_phase(const System& sys, LoopData& d, Dopri5& ode, double t, const Eigen::VectorXd& x);

}  // namespace impactsim
