// Event location: the root finder brackets a crossing to 1e-12 s and returns its fired side; the
// step scan finds the earliest armed crossing, dips inside a step, and the guards that join it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/event_locate.hpp"

namespace impactsim {
namespace {

// locate_event reading one guard as every guard's reading gives it.
std::optional<LocatedEvent> locate_event(const ContactModel& contacts, double distance_tolerance, double t0, double t1,
                                         GuardsAt guards_at, std::vector<Guard>& guards, Eigen::VectorXd& g_prev) {
  Eigen::VectorXd g;
  const auto one = [&](double t, int k) {
    guards_at(t, g);
    return g[k];
  };
  return impactsim::locate_event(contacts, distance_tolerance, t0, t1, guards_at, one, guards, g_prev);
}

TEST(EventLocate, CrossingIsLocatedToTheTimeToleranceOnTheFiredSide) {
  // A ball dropped from 1 m: phi(t) = 1 - g t^2 / 2 crosses at sqrt(2 / g).
  const double g = 9.81, root = std::sqrt(2 / g);
  int evaluations = 0;
  auto phi = [&](double t) {
    ++evaluations;
    return 1 - 0.5 * g * t * t;
  };
  const double t = locate_crossing(phi, 0.4, 0.5, phi(0.4), phi(0.5));
  EXPECT_LE(phi(t), 0.0);             // past the crossing: the event state has fired
  EXPECT_NEAR(t, root, 1e-12);
  EXPECT_GE(t, root);
  EXPECT_LT(evaluations, 20);         // superlinear, not bisection's 37
}

TEST(EventLocate, ExactZeroAtAnEndIsReturned) {
  auto line = [](double t) { return 1.0 - t; };
  EXPECT_EQ(locate_crossing(line, 0.0, 1.0, 1.0, 0.0), 1.0);
}

TEST(EventLocate, ScanFindsTheEarliestArmedCrossingAndTheGuardsThatJoinIt) {
  // Two open contacts with phi_0(t) = 1 - t and phi_1(t) = 1 - t + 1e-7 (within the distance
  // tolerance of the first at its crossing): one event at t = 1 with both; a third guard that
  // crosses later is not part of it.
  const ContactModel contacts;
  std::vector<Guard> guards{{0, GuardKind::impact, true}, {1, GuardKind::impact, true}, {2, GuardKind::impact, true}};
  auto at = [](double t, Eigen::VectorXd& g) {
    g.resize(3);
    g << 1 - t, 1 - t + 1e-7, 1.5 - t;
  };
  Eigen::VectorXd g_prev;
  at(0.0, g_prev);
  const std::optional<LocatedEvent> e = locate_event(contacts, 1e-6, 0.0, 2.0, at, guards, g_prev);
  ASSERT_TRUE(e.has_value());
  EXPECT_NEAR(e->t, 1.0, 1e-12);
  ASSERT_EQ(e->fired.size(), 2u);
  EXPECT_EQ(e->fired[0].contact, 0);
  EXPECT_EQ(e->fired[1].contact, 1);
  EXPECT_EQ(e->crossed.contact, 0);  // the other was within the distance tolerance there
}

// With a one-guard reader, root finding reads only the guard it locates; the event is the same,
// and every guard is read only at the scanned times and at the event.
TEST(EventLocate, RootFindingReadsOneGuardWhereTheCallerCan) {
  const ContactModel contacts;
  std::vector<Guard> guards{{0, GuardKind::impact, true}, {1, GuardKind::impact, true}, {2, GuardKind::impact, true}};
  int all = 0, one = 0;
  auto at = [&](double t, Eigen::VectorXd& g) {
    ++all;
    g.resize(3);
    g << 1.2 - t * t, 1.2 - t * t + 1e-7, 1.5 - t;
  };
  auto single = [&](double t, int k) {
    ++one;
    Eigen::VectorXd g;
    at(t, g);
    --all;
    return g[k];
  };
  std::vector<Guard> guards_too = guards;
  Eigen::VectorXd g_prev, g_prev_too;
  at(0.0, g_prev);
  g_prev_too = g_prev;
  all = 0;
  const std::optional<LocatedEvent> e = locate_event(contacts, 1e-6, 0.0, 2.0, at, single, guards, g_prev);
  const int all_with_one = all;
  all = 0;
  const std::optional<LocatedEvent> e_too = locate_event(contacts, 1e-6, 0.0, 2.0, at, guards_too, g_prev_too);
  ASSERT_TRUE(e.has_value() && e_too.has_value());
  EXPECT_EQ(e->t, e_too->t);
  EXPECT_EQ(e->fired.size(), 2u);
  EXPECT_EQ(e_too->fired.size(), 2u);
  EXPECT_GT(one, 5);
  EXPECT_EQ(all_with_one, 4);  // three scanned points (the third past the crossing), the crossing (the event)
  EXPECT_GE(all, all_with_one + one);
}

// The event's fired set comes from the guards read at the crossing: every guard is read there
// once, and last, so a caller's guards_at leaves its contact stage at the event's state.
TEST(EventLocate, EveryGuardIsReadOnceAtTheEventAndLast) {
  const ContactModel contacts;
  std::vector<Guard> guards{{0, GuardKind::impact, true}, {1, GuardKind::impact, true}, {2, GuardKind::impact, true}};
  std::vector<double> read_at;
  auto at = [&](double t, Eigen::VectorXd& g) {
    read_at.push_back(t);
    g.resize(3);
    g << 0.9 - t, 0.8 - t * t, 1.5 - t;  // guard 1 crosses first (t = 0.894), guard 0 at 0.9
  };
  auto single = [&](double t, int k) {
    Eigen::VectorXd g;
    at(t, g);
    read_at.pop_back();  // root finding's reads of one guard are not reads of every guard
    return g[k];
  };
  Eigen::VectorXd g_prev;
  at(0.0, g_prev);
  read_at.clear();
  const std::optional<LocatedEvent> e = locate_event(contacts, 1e-6, 0.0, 2.0, at, single, guards, g_prev);
  ASSERT_TRUE(e.has_value());
  EXPECT_NEAR(e->t, std::sqrt(0.8), 1e-12);
  EXPECT_EQ(e->crossed.contact, 1);
  ASSERT_EQ(e->fired.size(), 1u);  // guard 0 is 5.6e-3 from firing there
  ASSERT_FALSE(read_at.empty());
  EXPECT_EQ(read_at.back(), e->t);
  EXPECT_EQ(std::count(read_at.begin(), read_at.end(), e->t), 1);
}

// A caller that reads the step's interior another way (without forces: core/force_guard_samples.hpp)
// gets interior_at at the three quarter points only; the step's end, and the event where there is
// one, are read by guards_at.
TEST(EventLocate, InteriorReadingsOnlyAtTheQuarterPoints) {
  const ContactModel contacts;
  std::vector<Guard> guards{{0, GuardKind::impact, true}, {1, GuardKind::impact, true}};
  std::vector<double> full_at, interior_at;
  const auto value = [](double t, Eigen::VectorXd& g) {
    g.resize(2);
    g << 2.0 - t, 0.65 - t;  // guard 1 crosses at 0.65 when the step reaches past it
  };
  auto full = [&](double t, Eigen::VectorXd& g) {
    full_at.push_back(t);
    value(t, g);
  };
  auto interior = [&](double t, Eigen::VectorXd& g) {
    interior_at.push_back(t);
    value(t, g);
  };
  auto single = [&](double t, int k) {
    Eigen::VectorXd g;
    value(t, g);
    return g[k];
  };
  Eigen::VectorXd g_prev;
  value(0.0, g_prev);
  EXPECT_FALSE(locate_event(contacts, 1e-6, 0.0, 0.5, full, interior, single, guards, g_prev).has_value());
  EXPECT_EQ(interior_at, (std::vector<double>{0.125, 0.25, 0.375}));
  EXPECT_EQ(full_at, (std::vector<double>{0.5}));
  full_at.clear();
  interior_at.clear();
  const std::optional<LocatedEvent> e = locate_event(contacts, 1e-6, 0.5, 1.3, full, interior, single, guards, g_prev);
  ASSERT_TRUE(e.has_value());
  EXPECT_NEAR(e->t, 0.65, 1e-12);
  EXPECT_EQ(interior_at, (std::vector<double>{0.5 + 0.25 * 0.8}));  // the first quarter point, past the crossing
  ASSERT_EQ(full_at.size(), 1u);
  EXPECT_EQ(full_at.back(), e->t);  // the event's state, read with forces, last
}

TEST(EventLocate, ADipInsideOneStepIsFound) {
  // g(t) = (t - 0.5)^2 - 0.0025 is negative only on (0.45, 0.55), inside the step [0, 1], and
  // positive at both ends: the scan's midpoint sees the dip, and its first crossing is the event.
  const ContactModel contacts;
  std::vector<Guard> guards{{0, GuardKind::impact, true}};
  auto at = [](double t, Eigen::VectorXd& g) {
    g.resize(1);
    g << (t - 0.5) * (t - 0.5) - 0.0025;
  };
  Eigen::VectorXd g_prev;
  at(0.0, g_prev);
  const std::optional<LocatedEvent> e = locate_event(contacts, 1e-6, 0.0, 1.0, at, guards, g_prev);
  ASSERT_TRUE(e.has_value());
  EXPECT_NEAR(e->t, 0.45, 1e-12);
}

TEST(EventLocate, UnarmedGuardsDoNotFireAndArmOncePositive) {
  const ContactModel contacts;
  std::vector<Guard> guards{{0, GuardKind::liftoff, false}};
  auto at = [](double t, Eigen::VectorXd& g) {
    g.resize(1);
    g << (t < 0.5 ? -1.0 : 1.0) * (1.0 - t);  // starts below zero, positive from 0.5 on, zero at 1
  };
  Eigen::VectorXd g_prev;
  at(0.0, g_prev);
  EXPECT_FALSE(locate_event(contacts, 1e-6, 0.0, 0.9, at, guards, g_prev).has_value());
  EXPECT_TRUE(guards[0].armed);  // positive at the scanned points past 0.5
  const std::optional<LocatedEvent> e = locate_event(contacts, 1e-6, 0.9, 1.2, at, guards, g_prev);
  ASSERT_TRUE(e.has_value());
  EXPECT_NEAR(e->t, 1.0, 1e-12);
  EXPECT_EQ(e->fired[0].kind, GuardKind::liftoff);
  EXPECT_EQ(e->crossed.kind, GuardKind::liftoff);
}

}  // namespace
}  // namespace impactsim
