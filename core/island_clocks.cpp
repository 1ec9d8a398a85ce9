#include "core/island_clocks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

#include "core/dynamics.hpp"
#include "core/event_loop.hpp"
#include "core/island_partition.hpp"
#include "core/system_slice.hpp"

namespace impactsim {
namespace {

// Bodies that their speed bounds can bring together within this time share a group [s]: shorter
// splits more and syncs more often, each sync costing a partition and a fresh loop per changed group.
constexpr double kSyncWindow = 5e-4;

struct Island {
  Island(SystemSlice s, Rng r) : slice(std::move(s)), rng(r) {}
  SystemSlice slice;
  Rng rng;
  RunCallbacks cb;
  std::unique_ptr<LoopRun> run;
  bool over = false;
  std::optional<Event> rest;  // its `rest` (logged as `sleep`), whole-system contacts
};

void add_stats(RunStats& sum, const RunStats& s) {
  sum.steps += s.steps;
  sum.rejected_steps += s.rejected_steps;
  sum.evaluations += s.evaluations;
  sum.min_phi = std::min(sum.min_phi, s.min_phi);
}

class IslandRun {
 public:
  IslandRun(const System& sys, const IslandModel& im, const ImpactLaw& law, const Eigen::VectorXd& x0, Rng& rng,
            const RunCallbacks& cb)
      : sys_(sys), im_(im), law_(law), rng_(rng), cb_(cb), by_body_(contacts_by_body(sys)), kin_(sys.model), x_(x0),
        eps_t_(1e-12 * std::max(1.0, sys.simulation.t_end)) {}

  RunStats run() {
    while (true) {
      form_islands();
      advance_islands();
      t_ = h_;
      flush(t_, t_);
      if (stopped_) break;
      // An island that ran ahead of the sync (to t_end, or to a rest beyond it) may still be met: the
      // run ends at t_end, or where every island has come to rest by the sync.
      const bool all_rest = std::all_of(islands_.begin(), islands_.end(),
                                        [&](const auto& i) { return i->run->loop.rested() && i->run->t <= t_; });
      if (t_ >= sys_.simulation.t_end || all_rest) {
        log_rest();
        flush(std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity());
        break;
      }
    }
    for (const auto& island : islands_) add_stats(stats_, island->run->stats());
    return stats_;
  }

 private:
  // The groups at (t_, x_): islands whose bodies are unchanged go on, the others start at t_.
  void form_islands() {
    const Model& model = sys_.model;
    const Eigen::VectorXd q = x_.head(model.nq), v = x_.tail(model.nv);
    update_kinematics(model, q, kin_);
    update_velocities(model, q, v, kin_);
    const Partition p = partition_islands(sys_, im_, kin_, group_, kSyncWindow, sys_.simulation.t_end - t_);
    h_ = std::min(t_ + p.horizon, sys_.simulation.t_end);
    if (sys_.simulation.t_end - h_ <= eps_t_) h_ = sys_.simulation.t_end;
    std::map<int, std::vector<int>> groups;
    for (int b = 0; b < static_cast<int>(p.group.size()); ++b) groups[p.group[b]].push_back(b);
    std::vector<std::unique_ptr<Island>> next;
    for (auto& [first, bodies] : groups) {
      auto same = std::find_if(islands_.begin(), islands_.end(),
                               [&](const auto& i) { return i && i->slice.bodies == bodies; });
      next.push_back(same != islands_.end() ? std::move(*same) : start_island(bodies));
    }
    for (auto& retired : islands_) {
      if (!retired) continue;
      add_stats(stats_, retired->run->stats());
      // What it did beyond t_ was done without the bodies it now meets: its events there go.
      std::erase_if(events_, [&](const Logged& l) { return l.from == retired.get() && l.event.t > t_; });
      if (retired->rest && retired->rest->t <= t_)
        events_.push_back({{.t = t_, .kind = EventKind::wake, .contacts = retired->rest->contacts}, nullptr});
    }
    islands_ = std::move(next);
    group_ = p.group;
  }

  std::unique_ptr<Island> start_island(const std::vector<int>& bodies) {
    auto island = std::make_unique<Island>(slice_system(sys_, bodies, by_body_), Rng(rng_()));
    Island* self = island.get();
    island->cb.sample = [this, self](const Sample& s) { write_row(*self, s); };
    island->cb.event = [this, self](const Event& e) { note_event(*self, e); };
    island->cb.stop = cb_.stop;
    Eigen::VectorXd x0;
    gather_state(island->slice, sys_, x_, x0);
    island->run = std::make_unique<LoopRun>(island->slice.system, law_, island->rng, island->cb, t_, x0);
    return island;
  }

  // Every island's progress to h_, then the whole state there into x_.
  void advance_islands() {
    try {
      for (auto& island : islands_) {
        if (island->over) continue;
        island->over = island->run->loop.advance(h_);
        stopped_ = stopped_ || island->run->loop.stopped();
      }
    } catch (const SimulationError&) {
      flush(t_, h_);  // every island's progress up to h_ stands, whatever the others do
      try {
        if (cb_.stopped) emit(cb_.stopped, t_, x_);
      } catch (const SimulationError&) {  // a state not finite: the reason already thrown says so
      }
      throw;
    }
    for (auto& island : islands_) {
      const Model& sub = island->slice.system.model;
      const Eigen::VectorXd s = island->run->loop.state_at_time(h_);
      scatter_state(island->slice, sys_, s.head(sub.nq), s.tail(sub.nv), x_);
    }
  }

  void write_row(const Island& island, const Sample& s) {
    auto [it, added] = rows_.try_emplace(s.t);
    if (added) it->second.setConstant(sys_.model.nq + sys_.model.nv, std::numeric_limits<double>::quiet_NaN());
    scatter_state(island.slice, sys_, s.q, s.v, it->second);
  }

  void note_event(Island& island, Event e) {
    for (int& c : e.contacts) c = island.slice.contacts[c];
    for (int& c : e.ordering) c = island.slice.contacts[c];
    if (e.kind == EventKind::rest) {
      e.kind = EventKind::sleep;
      island.rest = e;
    }
    events_.push_back({std::move(e), &island});
  }

  // The whole system rests once every island does: at the last one's rest.
  void log_rest() {
    Event rest{.t = 0.0, .kind = EventKind::rest};
    for (const auto& island : islands_) {
      if (!island->run->loop.rested() || !island->rest) return;
      rest.t = std::max(rest.t, island->rest->t);
      rest.contacts.insert(rest.contacts.end(), island->rest->contacts.begin(), island->rest->contacts.end());
      rest.kinetic_before += island->rest->kinetic_before;
      rest.kinetic_after += island->rest->kinetic_after;
    }
    std::sort(rest.contacts.begin(), rest.contacts.end());
    events_.push_back({std::move(rest), nullptr});
  }

  // Rows up to t_rows (complete: every island has passed them) and events up to t_events, in order.
  void flush(double t_rows, double t_events) {
    while (!rows_.empty() && rows_.begin()->first <= t_rows + eps_t_) {
      const auto& [t, x] = *rows_.begin();
      if (x.hasNaN()) throw std::logic_error("island clocks: the row at t = " + format_time(t) + " s is incomplete");
      emit(cb_.sample, t, x);
      ++stats_.samples;
      rows_.erase(rows_.begin());
    }
    std::stable_sort(events_.begin(), events_.end(), [](const Logged& a, const Logged& b) { return a.event.t < b.event.t; });
    auto end = events_.begin();
    for (; end != events_.end() && end->event.t <= t_events; ++end) {
      const Event& e = end->event;
      if (is_impact(e.kind)) ++stats_.impacts;
      if (++stats_.events > sys_.contact.max_events)
        throw SimulationError(e.t, StopReason::event_limit, "more than " + std::to_string(sys_.contact.max_events) +
                                  " events by t = " + format_time(e.t) + " s; if impacts accumulate (Zeno), raise simulation.contact.v_zeno");
      if (cb_.event) cb_.event(e);
    }
    events_.erase(events_.begin(), end);
  }

  void emit(const SampleSink& sink, double t, const Eigen::VectorXd& x) {
    if (!sink) return;
    const Model& model = sys_.model;
    const Eigen::VectorXd q = x.head(model.nq), v = x.tail(model.nv);
    update_kinematics(model, q, kin_);
    update_velocities(model, q, v, kin_);
    const Sample row{t, q, v, kinetic_energy(model, kin_), potential_energy(model, kin_)};
    check_finite_row(row);
    sink(row);
  }

  const System& sys_;
  const IslandModel& im_;
  const ImpactLaw& law_;
  Rng& rng_;
  const RunCallbacks& cb_;
  const std::vector<std::vector<int>> by_body_;  // contacts_by_body(sys_)
  Kinematics kin_;
  Eigen::VectorXd x_;  // the whole state at t_ (a sync time)
  const double eps_t_;
  double t_ = 0.0, h_ = 0.0;
  std::vector<int> group_;  // per body, its group at t_
  std::vector<std::unique_ptr<Island>> islands_;
  std::map<double, Eigen::VectorXd> rows_;  // rows being assembled, by time
  struct Logged {
    Event event;
    const Island* from;  // nullptr: the run's own (wake, rest)
  };
  std::vector<Logged> events_;  // events not yet handed on
  RunStats stats_;
  bool stopped_ = false;
};

}  // namespace

bool island_clocks_apply(const System& sys) {
  const IslandClocks mode = sys.simulation.island_clocks;
  if (mode == IslandClocks::off || (mode == IslandClocks::automatic && sys.model.nv < kBlockwiseFrom)) return false;
  return island_model(sys).has_value();
}

RunStats simulate_island_clocks(const System& sys, const ImpactLaw& law, const Eigen::VectorXd& x0, Rng& rng,
                                const RunCallbacks& callbacks) {
  const std::optional<IslandModel> im = island_model(sys);
  if (!im) throw std::invalid_argument("simulate_island_clocks: the energy bound does not apply to this system");
  return IslandRun(sys, *im, law, x0, rng, callbacks).run();
}

}  // namespace impactsim
