// The stall watch: a window whose steps advanced time by too little stops the run as stalled, one
// whose pace needs far more steps than are left stops it now, and either message names the guards
// that fired most in the window.
#include <gtest/gtest.h>

#include "core/stall_watch.hpp"

namespace impactsim {
namespace {

ContactModel two_contacts() {
  std::vector<Geometry> g(1);
  g[0].shape.type = ShapeType::halfspace;
  g[0].shape.normal = Vec3::UnitY();
  return ContactModel(g, {{"A", 0, Vec3(0, 0, 0), 0.0, 0, 0.5, 0.0}, {"B", 0, Vec3(1, 0, 0), 0.0, 0, 0.5, 0.0}}, true);
}

SimulationSettings settings(long window, long max_steps) {
  SimulationSettings s;
  s.t_end = 1.0;
  s.stall_window = window;
  s.max_steps = max_steps;
  return s;
}

// The SimulationError check throws, or a failure.
SimulationError thrown(StallWatch& watch, long steps, double t) {
  try {
    watch.check(steps, t);
  } catch (const SimulationError& e) {
    return e;
  }
  ADD_FAILURE() << "no stop at " << steps << " steps, t = " << t;
  return SimulationError(0, StopReason::stalled, "");
}

TEST(StallWatch, AWindowThatAdvancedTooLittleIsAStall) {
  const ContactModel contacts = two_contacts();
  StallWatch watch(settings(100, 1'000'000), contacts, true);
  watch.check(99, 1e-9);  // the window is not full yet
  watch.check(100, 0.0078125);  // a good window: 2^-7 s in 100 steps
  for (int k = 0; k < 30; ++k) watch.note({1, GuardKind::stick});
  watch.note({0, GuardKind::impact});
  const SimulationError e = thrown(watch, 200, 0.0078125 + 0x1p-21);  // 4.8e-7 s: below 1e-6 t_end
  EXPECT_EQ(e.reason(), StopReason::stalled);
  const std::string what = e.what();
  EXPECT_NE(what.find("the last 100 steps advanced it by 4.76837158203e-07 s"), std::string::npos) << what;
  EXPECT_NE(what.find("stick of 'B' (30 times), impact of 'A' (1 times)"), std::string::npos) << what;
}

TEST(StallWatch, APaceThatNeedsFarMoreStepsThanAreLeftStopsNow) {
  const ContactModel contacts = two_contacts();
  StallWatch watch(settings(100, 10'000), contacts, false);
  // 1e-4 s per 100 steps: t_end needs about 1e6 more, more than 20 times the 9,900 left.
  const SimulationError e = thrown(watch, 100, 1e-4);
  EXPECT_EQ(e.reason(), StopReason::step_limit);
  EXPECT_NE(std::string(e.what()).find("more than 20 times the 9900 simulation.max_steps leaves"), std::string::npos)
      << e.what();
  // A pace within the margin goes on: 0.25 s in 100 steps needs 300 more.
  StallWatch fine(settings(100, 10'000), contacts, false);
  EXPECT_NO_THROW(fine.check(100, 0.25));
}

TEST(StallWatch, NoWindowNeverStops) {
  const ContactModel contacts = two_contacts();
  StallWatch watch(settings(0, 10), contacts, true);
  EXPECT_NO_THROW(watch.check(1'000'000, 0.0));
}

TEST(StallWatch, WithoutChatterSteppingTheMessageSaysWhatWouldStepThrough) {
  const ContactModel contacts = two_contacts();
  StallWatch watch(settings(10, 1'000'000), contacts, false);
  watch.note({0, GuardKind::slip});
  const std::string what = thrown(watch, 10, 0.0).what();
  EXPECT_NE(what.find("painleve_step > 0 would step through guards that chatter"), std::string::npos) << what;
}

}  // namespace
}  // namespace impactsim
