#pragma once
// How a run ended, as a batch's runs.csv row and a run's summary.json report it: events and impacts
// (per contact too), the time it came to rest, the last state reached, which contacts are closed
// there, and the scene's outcome columns. Fed by the run's callbacks.
#include <cmath>
#include <string>
#include <vector>

#include "core/events.hpp"
#include "scenes/scene.hpp"

namespace impactsim {

class RunTally {
 public:
  RunTally(const Scene& scene, const State& initial);
  void event(const Event& e);
  void sample(const Sample& s);  // every output row, and the state a failed run stopped at

  long impacts() const { return impacts_; }
  long events() const { return events_; }
  long time_steps() const { return time_steps_; }  // `step` events: where the run left the exact path
  double stepped_time() const { return stepped_time_; }  // their lengths summed [s]
  // Zeno closes that held nearly dependent contacts (closes_dependent_rows), and the first of them
  // (meaningful where the count is above 0).
  long dependent_closes() const { return dependent_closes_; }
  const Event& first_dependent_close() const { return first_dependent_close_; }
  // What such a close means, for the warnings of `run` and `batch`: "held nearly dependent
  // contacts and removed energy ... (dependent_closes in <file>)", and where the docs explain it.
  static std::string dependent_close_meaning(const std::string& file);
  static const char* const kDependentCloseReadme;
  // The run's deepest penetration [m, >= 0] from its statistics, once it has ended (NaN before, and
  // for a run that stopped early: its statistics end with it).
  void finished(const RunStats& stats);
  double deepest_penetration() const { return deepest_penetration_; }
  double t_final() const { return t_final_; }
  double t_rest() const { return t_rest_; }  // < 0: never came to rest
  const Eigen::VectorXd& q() const { return q_; }
  const Eigen::VectorXd& v() const { return v_; }
  double kinetic_energy() const;
  std::vector<bool> closed() const;           // per contact, at the last state
  // The scene's outcome columns, in order; `closed` is closed() (the caller's, so the contacts'
  // state is measured once per run).
  std::vector<double> outcome_values(const std::vector<bool>& closed) const;

 private:
  const Scene& scene_;
  long impacts_ = 0, events_ = 0, time_steps_ = 0, dependent_closes_ = 0;
  Event first_dependent_close_;
  double t_final_ = 0, t_rest_ = -1, stepped_time_ = 0;
  double deepest_penetration_ = std::nan("");
  std::vector<long> contact_impacts_;
  std::vector<long> contact_lifts_;  // impacts that left the contact separating
  std::vector<int> first_lift_;      // per contact: -1 before its first impact, then 1 if that one lifted it, else 0
  Eigen::VectorXd q_, v_;
};

// DIR/summary.json of `run`: status ("ok" or "failed"), the stop reason's code and message of a
// failed run, t_final, impacts, events, time_steps, stepped_time, dependent_closes, t_rest (null if never at rest), the final kinetic energy,
// the deepest penetration (null where not known: a run that stopped early), each contact's closed
// flag and each outcome's value.
std::string run_summary_json(const Scene& scene, const RunTally& tally, const std::string& reason,
                             const std::string& message);

}  // namespace impactsim
