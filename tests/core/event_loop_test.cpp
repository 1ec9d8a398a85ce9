#include "core/event_loop.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "impact/laws.hpp"
#include "scenes/scene.hpp"
#include "scenes/scene_overrides.hpp"
#include "tests/core/island_scenes.hpp"

namespace impactsim {
namespace {

using testing::island_body;
using testing::island_scene;

struct Trace {
  std::vector<Event> events;
  std::vector<double> t;
  std::vector<Eigen::VectorXd> rows;
};

// The run of scene by one loop, advanced to each of `stops` in turn, then to the end.
Trace run_in_pieces(const Scene& scene, const std::vector<double>& stops, std::vector<Eigen::VectorXd>* at_stops = nullptr) {
  Trace trace;
  RunCallbacks cb;
  cb.sample = [&](const Sample& s) {
    trace.t.push_back(s.t);
    Eigen::VectorXd x(s.q.size() + s.v.size());
    x << s.q, s.v;
    trace.rows.push_back(x);
  };
  cb.event = [&](const Event& e) { trace.events.push_back(e); };
  const auto law = make_law(scene.law, scene.laws);
  Rng rng(scene.seed);
  Eigen::VectorXd x0(scene.initial.q.size() + scene.initial.v.size());
  x0 << scene.initial.q, scene.initial.v;
  LoopRun run(scene.system, *law, rng, cb, 0.0, x0);
  for (double until : stops) {
    if (run.loop.advance(until)) break;
    if (at_stops) at_stops->push_back(run.loop.state_at_time(until));
  }
  EXPECT_TRUE(run.loop.advance(std::numeric_limits<double>::infinity()));
  return trace;
}

const std::string kTwoBoxes = island_body("a", true, 0, 0, 0.08) + island_body("b", false, 0.4, 0, 0.12, 0.5, "[0, 0, 0]");

// Pausing a loop anywhere (here 97 times, most within steps, some at events beyond the stop) takes
// the same steps, events and rows to the bit as running it straight through.
TEST(EventLoop, PausingChangesNothing) {
  const Scene scene = load_scene_text(island_scene(kTwoBoxes, 0.5), "loop", {parse_override("simulation.island_clocks=false")});
  const Trace whole = run_in_pieces(scene, {});
  std::vector<double> stops;
  for (int k = 1; k < 98; ++k) stops.push_back(k * 0.00517);
  const Trace pieces = run_in_pieces(scene, stops);
  ASSERT_EQ(whole.events.size(), pieces.events.size());
  ASSERT_GT(whole.events.size(), 10u);
  for (size_t k = 0; k < whole.events.size(); ++k) {
    EXPECT_EQ(whole.events[k].t, pieces.events[k].t) << k;
    EXPECT_EQ(whole.events[k].kind, pieces.events[k].kind) << k;
    EXPECT_EQ(whole.events[k].contacts, pieces.events[k].contacts) << k;
  }
  EXPECT_EQ(whole.t, pieces.t);
  ASSERT_EQ(whole.rows.size(), 51u);
  for (size_t k = 0; k < whole.rows.size(); ++k) EXPECT_EQ(whole.rows[k], pieces.rows[k]) << "row " << k;
}

// The state a pause reports at its stop is the run's state there: at an output time, that row's.
TEST(EventLoop, APauseReportsTheStateAtItsStop) {
  const Scene scene = load_scene_text(island_scene(kTwoBoxes, 0.3), "loop", {parse_override("simulation.island_clocks=false")});
  std::vector<Eigen::VectorXd> at;
  const std::vector<double> stops = {0.05, 0.1, 0.2};
  const Trace pieces = run_in_pieces(scene, stops, &at);
  ASSERT_EQ(at.size(), 3u);
  for (size_t k = 0; k < stops.size(); ++k) {
    const size_t row = static_cast<size_t>(stops[k] / 0.01 + 0.5);
    ASSERT_NEAR(pieces.t[row], stops[k], 1e-15);
    EXPECT_LT((at[k] - pieces.rows[row]).lpNorm<Eigen::Infinity>(), 1e-12) << "stop " << stops[k];
  }
}

}  // namespace
}  // namespace impactsim
