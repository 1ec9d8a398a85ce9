#pragma once
// The hybrid event loop over one system (core/hybrid.hpp says what a run does), resumable: it runs
// until its progress covers a given time and can be taken up again there, so that islands on their
// own clocks (core/island_clocks.hpp) each run one and meet at sync times.
//
// The loop pauses after the first piece of progress that reaches `until`: an accepted step (its
// event, if one lies beyond `until`, is kept for a later call), or a stretch of Painleve steps.
// Pausing never changes what the loop computes: advance(a) then advance(b) takes the same steps, to
// the bit, as advance(b). The states from `until` to where the loop got stay readable (state_at_time)
// until it moves on.
#include <optional>

#include <Eigen/Core>

#include "core/chatter.hpp"
#include "core/dopri5.hpp"
#include "core/event_locate.hpp"
#include "core/impacts.hpp"
#include "core/loop_data.hpp"
#include "core/stall_watch.hpp"

namespace impactsim {

class EventLoop {
 public:
  // The loop over sys from (t, x): x and t always hold the last state the run reached, for the
  // caller to report where a failed run stopped. Rows start after t (begin writes the one at t = 0).
  EventLoop(const System& sys, const ImpactLaw& law, Rng& rng, const RunCallbacks& cb, LoopData& d, Dopri5& ode,
            Eigen::VectorXd& x, double& t);

  // Runs on until the run is over (true: t_end, rest or callbacks.stop) or its progress covers
  // `until` (false). The first call starts with the run's first instant: at t = 0 its row, then
  // the event at t (contact modes, impacts). Throws SimulationError as core/state.hpp describes.
  bool advance(double until);
  // The run's state at time s, from the last `until` on: on the step that crossed it (the dense
  // output, or a Painleve step's straight line), the last state reached from there on.
  Eigen::VectorXd state_at_time(double s);
  // The run ended at rest (the `rest` event), at t.
  bool rested() const { return rested_; }
  // The run ended because callbacks.stop asked.
  bool stopped() const { return stopped_; }

 private:
  enum class PhaseEnd { next_phase, over, paused };
  void begin();
  double step_on(int steps, double h_first = 0.0);
  void event_at(const std::vector<FiredGuard>& fired);
  bool rests(double t_now);
  bool stop_asked();
  void rows_until_end();
  const Eigen::VectorXd& state_at(double t_at);
  std::optional<LocatedEvent> scan_step();
  std::optional<LocatedEvent> locate(bool steady);
  PhaseEnd run_phase();
  bool step_failed(Dopri5::Status st);
  bool handle_located(const LocatedEvent& event);
  bool accept_step();
  bool sleep_islands();

  const System& sys_;
  const ImpactLaw& law_;
  Rng& rng_;
  const RunCallbacks& cb_;
  LoopData& d_;
  Dopri5& ode_;
  Eigen::VectorXd& x_;
  double& t_;
  const EventLog log_;
  long next_ = 1;
  const long last_;
  const double eps_t_;
  bool has_quaternions_ = false;
  Eigen::VectorXd end_state_, end_rate_;  // the state at the step's end where the guards found forces, f there
  // A step read without forces inside: its guards and their values at its start, and the last
  // reading with forces (core/force_guard_samples.hpp).
  std::vector<Guard> guards_before_;
  Eigen::VectorXd g_start_, g_read_;
  ChatterWatch chatter_;
  StallWatch stall_;
  // Resuming: begun; the run is over; a phase is under way; the event found beyond until_.
  bool begun_ = false, over_ = false, rested_ = false, stopped_ = false, phase_open_ = false;
  std::optional<LocatedEvent> pending_;
  double until_ = 0.0;
  // The progress since the loop last moved on from a pause: steps, each on the dense output (the
  // integrator's last step) or a Painleve step's ends. Kept only where until_ comes before t_end.
  struct Segment {
    double t0, t1;
    bool dense;
    Eigen::VectorXd x0, x1;
  };
  std::vector<Segment> path_;
};

// A loop with its data, integrator and state: a whole run's, or one island's (the system must
// outlive it). Not copied or moved: the loop holds references into it.
struct LoopRun {
  LoopRun(const System& sys, const ImpactLaw& law, Rng& rng, const RunCallbacks& cb, double t0,
          const Eigen::VectorXd& x0);
  LoopRun(const LoopRun&) = delete;
  LoopRun& operator=(const LoopRun&) = delete;
  // The run's statistics, the integrator's counts included.
  RunStats stats() const;

  LoopData d;
  Dopri5 ode;
  Eigen::VectorXd x;
  double t;
  EventLoop loop;
};

}  // namespace impactsim
