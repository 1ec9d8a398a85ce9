#include "core/hybrid.hpp"

#include <limits>

#include "core/event_loop.hpp"
#include "core/island_clocks.hpp"
#include "core/phase.hpp"

namespace impactsim {

RunStats simulate_hybrid(const System& sys, const ImpactLaw& law, const State& initial, Rng& rng,
                         const RunCallbacks& cb) {
  Eigen::VectorXd x(sys.model.nq + sys.model.nv);
  x << initial.q, initial.v;
  if (!x.allFinite()) throw SimulationError(0.0, StopReason::not_finite, "the initial state is not finite");
  if (island_clocks_apply(sys)) return simulate_island_clocks(sys, law, x, rng, cb);
  LoopRun run(sys, law, rng, cb, 0.0, x);
  try {
    run.loop.advance(std::numeric_limits<double>::infinity());
  } catch (const SimulationError&) {
    try {
      if (cb.stopped) emit(sys, run.d, cb.stopped, run.t, run.x);
    } catch (const SimulationError&) {  // a state not finite: the reason already thrown says so
    }
    throw;
  }
  return run.stats();
}

}  // namespace impactsim
