// When the event loop steps through chatter: the same guard again and again at one instant;
// kChatterEvents events without a collision within painleve_step of the first (kChatterWindow
// steps in a large model, where collisions right after a stepping count too, and
// kSlideChatterEvents events of slides' guards suffice); kFailedSlips slides
// in a row at one contact that end as they start; and more steps each time it comes back soon
// after; and the spacing of the tries at consistent modes once stepping,
// and the steps' size while those keep failing.
#include <vector>

#include <gtest/gtest.h>

#include "core/chatter.hpp"

namespace impactsim {
namespace {

constexpr double kStep = 1e-4;

// Feeds n events without a collision, dt apart from t; returns the last answer and moves t on.
int quiet_events(ChatterWatch& w, double& t, int n, double dt) {
  int steps = 0;
  for (int k = 0; k < n; ++k, t += dt) steps = w.chattering(t, false, kStep);
  return steps;
}

TEST(Chatter, SixteenQuietEventsWithinAStepAskForOneStep) {
  ChatterWatch w;
  double t = 0.1;
  EXPECT_EQ(quiet_events(w, t, kChatterEvents - 1, 1e-12), 0);
  EXPECT_EQ(w.chattering(t, false, kStep), 1);
  EXPECT_EQ(w.chattering(t, false, kStep), 0);  // counting starts again
}

TEST(Chatter, ACollisionOrASpreadOutRunOfEventsIsNoChatter) {
  ChatterWatch w;
  double t = 0.1;
  EXPECT_EQ(quiet_events(w, t, kChatterEvents - 1, 1e-12), 0);
  EXPECT_EQ(w.chattering(t, true, kStep), 0);  // a collision: a cascade, for the impact law
  EXPECT_EQ(quiet_events(w, t, kChatterEvents - 1, 1e-12), 0);
  EXPECT_EQ(w.chattering(t, true, kStep), 0);
  // Quiet events farther apart than a step in all: the count restarts where the span runs out.
  EXPECT_EQ(quiet_events(w, t, 4 * kChatterEvents, kStep / 8), 0);
  ChatterWatch off;
  t = 0.1;
  for (int k = 0; k < 4 * kChatterEvents; ++k) EXPECT_EQ(off.chattering(t, false, 0.0), 0);  // painleve_step 0: never
}

// A large model counts over kChatterWindow steps' time: 16 quiet events 1/8 step apart (two steps
// in all) are chatter there and not in a small model; 16 spread over more than the window are not.
TEST(Chatter, ALargeModelCountsQuietEventsOverItsWindow) {
  ChatterWatch small, large;
  double t = 0.1, u = 0.1;
  const int small_nv = kChatterWindowFrom - 1, large_nv = kChatterWindowFrom;
  for (int k = 0; k < kChatterEvents - 1; ++k, t += kStep / 8) EXPECT_EQ(small.chattering(t, false, kStep, small_nv), 0);
  EXPECT_EQ(small.chattering(t, false, kStep, small_nv), 0);
  for (int k = 0; k < kChatterEvents - 1; ++k, u += kStep / 8) EXPECT_EQ(large.chattering(u, false, kStep, large_nv), 0);
  EXPECT_EQ(large.chattering(u, false, kStep, large_nv), 1);
  ChatterWatch spread;
  const double dt = 1.1 * kChatterWindow * kStep / (kChatterEvents - 1);
  for (int k = 0; k < 4 * kChatterEvents; ++k, u += dt) EXPECT_EQ(spread.chattering(u, false, kStep, large_nv), 0);
}

// A model of kResidueFrom velocities or more returns from its steps with contacts approaching at
// the speeds the steps left (up to g times a step, a few mm/s): within kChatterWindow steps' time
// of a stepping's end, collisions count as chatter there. A smaller model's collisions, and those
// that come later, still reset the count.
TEST(Chatter, CollisionsRightAfterALargeModelsSteppingCountAsChatter) {
  const auto chattered = [](ChatterWatch& w, double& t) {
    for (int k = 0; k < kChatterEvents; ++k, t += 1e-12) w.chattering(t, false, kStep, kChatterWindowFrom);
    t += kStep;  // the step taken
    w.stepped(t, kStep);
  };
  const auto collisions = [](ChatterWatch& w, double t, bool residue) {
    const int nv = residue ? kResidueFrom : kResidueFrom - 1;
    int steps = 0;
    for (int k = 0; k < kChatterEvents; ++k, t += kStep / 8) steps = w.chattering(t, true, kStep, nv);
    return steps;
  };
  ChatterWatch large, smaller, later, never;
  double t = 0.3, u = 0.3, s = 0.3;
  chattered(large, t);
  chattered(smaller, u);
  chattered(later, s);
  EXPECT_EQ(collisions(large, t, true), 2);  // it came back soon: twice the steps
  EXPECT_EQ(collisions(smaller, u, false), 0);
  EXPECT_EQ(collisions(later, s + 1.5 * kChatterWindow * kStep, true), 0);  // past the window: a cascade again
  EXPECT_EQ(collisions(never, 0.3, true), 0);
}

// Where every contact is plastic, a model of kResidueFrom velocities or more counts its
// collisions faster than the steps' residue speed as chatter at any time, not only after a
// stepping: kChatterEvents of them within kChatterWindow steps' time ask for a step. Slower ones
// (what a step leaves approaching), a smaller plastic model's, and a large elastic model's away
// from a stepping still start the count again; so do collisions spread wider than the window.
TEST(Chatter, APlasticLargeModelsFastCollisionsCountAsChatter) {
  constexpr double residue = 9.81 * 8 * kStep;
  const auto collisions = [](ChatterWatch& w, int nv, double dt, double speed) {
    int steps = 0;
    double t = 0.3;
    for (int k = 0; k < kChatterEvents; ++k, t += dt)
      steps = w.chattering(t, true, kStep, nv, -1, -1, SlideEdge::none, speed);
    return steps;
  };
  ChatterWatch plastic(true, residue), slow(true, residue), small(true, residue), elastic, spread(true, residue);
  EXPECT_EQ(collisions(plastic, kResidueFrom, kStep / 8, 0.5), 1);
  EXPECT_EQ(collisions(slow, kResidueFrom, kStep / 8, 0.5 * residue), 0);
  EXPECT_EQ(collisions(small, kResidueFrom - 1, kStep / 8, 0.5), 0);
  EXPECT_EQ(collisions(elastic, kResidueFrom, kStep / 8, 0.5), 0);
  EXPECT_EQ(collisions(spread, kResidueFrom, 1.1 * kChatterWindow * kStep / (kChatterEvents - 1), 0.5), 0);
}

// The same guard placing kRepeatsAtOneInstant events in a row within rounding of each other (5e-14 s
// apart, as a frictional 10-sphere pile's stick guard did, each event a failed search for slips)
// is chatter at once, in a model of any size. Other guards between them, events farther apart
// than kInstant, and a collision each start the count again; guards told by number (-1: none
// named, as before).
TEST(Chatter, TheSameGuardAgainAtOneInstantIsChatterAtOnce) {
  constexpr int guard = 7;
  for (const int nv : {12, kChatterWindowFrom, kResidueFrom}) {
    ChatterWatch w;
    double t = 0.634993998;
    for (int k = 1; k < kRepeatsAtOneInstant; ++k, t += 5e-14) EXPECT_EQ(w.chattering(t, false, kStep, nv, guard), 0);
    EXPECT_EQ(w.chattering(t, false, kStep, nv, guard), 1) << nv;
  }
  ChatterWatch other, apart, collided, unnamed;
  double t = 0.2;
  for (int k = 0; k < 2 * kRepeatsAtOneInstant; ++k, t += 5e-14)  // two guards by turns
    EXPECT_EQ(other.chattering(t, false, kStep, 12, guard + k % 2), 0) << k;
  for (int k = 0; k < 2 * kRepeatsAtOneInstant; ++k, t += 1e-9)  // 1e-9 s apart: not one instant
    EXPECT_EQ(apart.chattering(t, false, kStep, 12, guard), 0) << k;
  for (int k = 0; k < 2 * kRepeatsAtOneInstant; ++k, t += 5e-14)  // every other one a collision
    EXPECT_EQ(collided.chattering(t, k % 2 == 1, kStep, 12, guard), 0) << k;
  for (int k = 0; k < kChatterEvents - 1; ++k, t += 5e-14) EXPECT_EQ(unnamed.chattering(t, false, kStep), 0) << k;
  EXPECT_EQ(unnamed.chattering(t, false, kStep), 1);  // the count of kChatterEvents, as before
}

// One contact's stick-slip cycle at the cone's edge, as a frictional 10-sphere pile's s6@s9 went
// through it 495 times: its slip guard starts a slide at t, its own stick guard ends it `slide`
// later, and the next slip comes `stuck` after that. Feeds `cycles` of them (guard numbers as the
// event loop makes them); returns the answer to the last event and moves t on.
int stick_slip_cycles(ChatterWatch& w, double& t, int cycles, int nv, int contact = 3, double slide = 2.6e-9,
                      double stuck = 8.8e-4) {
  int steps = 0;
  for (int k = 0; k < cycles; ++k) {
    EXPECT_EQ(w.chattering(t, false, kStep, nv, 10 * contact + 2, contact, SlideEdge::slip), 0) << k;
    t += slide;
    steps = w.chattering(t, false, kStep, nv, 10 * contact + 3, contact, SlideEdge::stick);
    if (k + 1 < cycles) {
      EXPECT_EQ(steps, 0) << k;
    }
    t += stuck;
  }
  return steps;
}

// kFailedSlips slides in a row that their own stick guard ends within kFailedSlipFraction of a
// step are chatter, in a model of any size, though their 8 events span 2.6 ms (more than
// kChatterWindow steps): the stretch spans the time they took (26.4 steps: 32), and the cycle's
// return right after it doubles the next. In a large model the cycles come 1.1 ms apart (at most
// four slide events in any window, below kSlideChatterEvents): 33 steps' span, 64 steps.
TEST(Chatter, SlidesThatFailAgainAndAgainAreChatter) {
  for (const int nv : {12, kChatterWindowFrom}) {
    const double stuck = nv < kChatterWindowFrom ? 8.8e-4 : 1.1e-3;
    const int steps = nv < kChatterWindowFrom ? 32 : 64;
    ChatterWatch w;
    double t = 0.75;
    const double first = t;
    EXPECT_EQ(stick_slip_cycles(w, t, kFailedSlips, nv, 3, 2.6e-9, stuck), steps) << nv;
    EXPECT_EQ(w.resume_size(), 0.0);  // new chatter: it starts at painleve_step
    EXPECT_GT(steps * kStep, t - stuck - first);  // the stretch covers the cycles' span
    EXPECT_LT(steps / 2 * kStep, t - stuck - first);  // and no more than a power of two does
    w.stepped(t += steps * kStep, kStep);
    EXPECT_EQ(stick_slip_cycles(w, t, kFailedSlips, nv, 3, 2.6e-9, stuck), 2 * steps) << nv;
    EXPECT_EQ(w.resume_size(), kStep);
  }
}

// In a large model kSlideChatterEvents events that slides' guards placed (slip, stick, hold or
// follow, at any contacts) within kChatterWindow steps' time are chatter, before the count of all
// events reaches kChatterEvents; events without an edge (lift-offs) do not add to them; a
// collision, or a span longer than the window, starts them again; a small model counts all events
// alike.
TEST(Chatter, ALargeModelsSlideEventsAreChatterSooner) {
  const SlideEdge edges[] = {SlideEdge::stick, SlideEdge::turn, SlideEdge::slip};
  const auto slide_events = [&](ChatterWatch& w, double& t, int n, int nv, double dt) {
    int steps = 0;
    for (int k = 0; k < n; ++k, t += dt) steps = w.chattering(t, false, kStep, nv, 4 * k + 1, k, edges[k % 3]);
    return steps;
  };
  const int large = kChatterWindowFrom, small = kChatterWindowFrom - 1;
  const double dt = 3e-4;  // six events in 1.5 ms: within the window of 2 ms
  ChatterWatch w;
  double t = 0.4;
  EXPECT_EQ(slide_events(w, t, kSlideChatterEvents - 1, large, dt), 0);
  EXPECT_EQ(slide_events(w, t, 1, large, dt), 1);
  EXPECT_EQ(slide_events(w, t, kSlideChatterEvents - 1, large, dt), 0);  // counting starts again

  ChatterWatch lifts;  // lift-offs among the slide events
  t = 0.4;
  for (int k = 0; k < kSlideChatterEvents - 1; ++k, t += 1e-5) {
    EXPECT_EQ(lifts.chattering(t, false, kStep, large, 2 * k, k), 0);
    EXPECT_EQ(lifts.chattering(t, false, kStep, large, 2 * k + 1, k, SlideEdge::stick), 0);
  }
  EXPECT_EQ(lifts.chattering(t, false, kStep, large, 99, 9, SlideEdge::stick), 1);

  ChatterWatch collided, spread, little;
  t = 0.4;
  EXPECT_EQ(slide_events(collided, t, kSlideChatterEvents - 1, large, dt), 0);
  EXPECT_EQ(collided.chattering(t, true, kStep, large), 0);
  EXPECT_EQ(slide_events(collided, t, kSlideChatterEvents - 1, large, dt), 0);
  const double apart = 1.05 * kChatterWindow * kStep / (kSlideChatterEvents - 1);
  EXPECT_EQ(slide_events(spread, t, 4 * kSlideChatterEvents, large, apart), 0);
  EXPECT_EQ(slide_events(little, t, kChatterEvents - 1, small, 1e-6), 0);  // within one step
  EXPECT_EQ(slide_events(little, t, 1, small, 1e-6), 1);

  // Right after a large model's stepping a collision counts as an event (kResidueFrom) but still
  // starts the slide events again: a landing among slides is not a slide's chatter.
  ChatterWatch residue;
  t = 0.4;
  residue.stepped(t, kStep);
  EXPECT_EQ(slide_events(residue, t, kSlideChatterEvents - 1, kResidueFrom, 1e-5), 0);
  EXPECT_EQ(residue.chattering(t, true, kStep, kResidueFrom), 0);
  EXPECT_EQ(slide_events(residue, t, kSlideChatterEvents - 1, kResidueFrom, 1e-5), 0);
  // 12 events in all, 6 slides since the collision; soon after the stepping: twice its steps
  EXPECT_EQ(slide_events(residue, t, 1, kResidueFrom, 1e-5), 2);
}

// A hold or follow event between a contact's slip and its stick neither breaks nor adds to the
// contact's run of failed slides.
TEST(Chatter, AFrictionsTurnIsNoSlideEnd) {
  ChatterWatch w;
  double t = 0.3;
  int steps = 0;
  for (int k = 0; k < kFailedSlips; ++k, t += 8.8e-4) {
    EXPECT_EQ(w.chattering(t, false, kStep, 12, 32, 3, SlideEdge::slip), 0) << k;
    EXPECT_EQ(w.chattering(t + 1e-9, false, kStep, 12, 34, 3, SlideEdge::turn), 0) << k;
    steps = w.chattering(t + 2e-9, false, kStep, 12, 33, 3, SlideEdge::stick);
    if (k + 1 < kFailedSlips) {
      EXPECT_EQ(steps, 0) << k;
    }
  }
  EXPECT_EQ(steps, 32);
}

// Slides that last (1e-6 s: ten times the span), a collision among the cycles, and another
// contact's slides in between each leave the count where it was or start it again.
TEST(Chatter, SlidesThatLastOrACollisionAreNoFailedCycle) {
  ChatterWatch lasting, collided, two;
  double t = 0.5;
  EXPECT_EQ(stick_slip_cycles(lasting, t, 4 * kFailedSlips, 12, 3, 10 * kFailedSlipFraction * kStep), 0);
  EXPECT_EQ(stick_slip_cycles(collided, t, kFailedSlips - 1, 12), 0);
  EXPECT_EQ(collided.chattering(t, true, kStep, 12), 0);
  EXPECT_EQ(stick_slip_cycles(collided, t, kFailedSlips - 1, 12), 0);
  // A slide of the contact that lasts starts its count again.
  EXPECT_EQ(stick_slip_cycles(collided, t, 1, 12, 3, 1e-3), 0);
  EXPECT_EQ(stick_slip_cycles(collided, t, kFailedSlips - 1, 12), 0);
  // Two contacts by turns: each counts its own, and the fourth of either is chatter.
  for (int k = 0; k < kFailedSlips - 1; ++k) {
    EXPECT_EQ(stick_slip_cycles(two, t, 1, 12, 3), 0) << k;
    EXPECT_EQ(stick_slip_cycles(two, t, 1, 12, 5), 0) << k;
  }
  EXPECT_GT(stick_slip_cycles(two, t, 1, 12, 3), 0);
  ChatterWatch off;
  for (int k = 0; k < 2 * kFailedSlips; ++k, t += 1e-3) {
    EXPECT_EQ(off.chattering(t, false, 0.0, 12, 32, 3, SlideEdge::slip), 0);
    EXPECT_EQ(off.chattering(t + 1e-9, false, 0.0, 12, 33, 3, SlideEdge::stick), 0);  // painleve_step 0: never
  }
}

TEST(Chatter, ChatterThatComesBackSoonDoublesTheSteps) {
  ChatterWatch w;
  double t = 0.2;
  int expected = 1;
  for (int round = 0; round < 12; ++round) {
    EXPECT_EQ(quiet_events(w, t, kChatterEvents - 1, 1e-12), 0);
    EXPECT_EQ(w.chattering(t, false, kStep), expected) << round;
    EXPECT_EQ(w.resume_size(), round == 0 ? 0.0 : 4 * kStep) << round;  // the size the last stretch ended with
    t += expected * kStep;  // the steps taken
    w.stepped(t, 4 * kStep);
    expected = std::min(2 * expected, kMaxChatterStretch);
  }
  EXPECT_EQ(expected, kMaxChatterStretch);
  // Chatter long after the last stepping is new: one step again.
  t += 2 * kChatterRecurs * kMaxChatterStretch * kStep;
  EXPECT_EQ(quiet_events(w, t, kChatterEvents - 1, 1e-12), 0);
  EXPECT_EQ(w.chattering(t, false, kStep), 1);
  EXPECT_EQ(w.resume_size(), 0.0);  // new chatter starts at painleve_step
}

TEST(Chatter, TriesAtConsistentModesComeAtDoublingIntervals) {
  int wait = 1;
  for (int expected : {2, 4, 8, 16, 32, 64}) EXPECT_EQ(wait = retry_wait(wait), expected);
  EXPECT_EQ(retry_wait(wait), kMaxChatterSteps);  // bounded: a pile that settles is tried again soon
}

// A stretch whose every try fails: painleve_step for the first 63 steps (tries after 1, 2, ... 32
// of them), then doubled at each failed try, 64 steps apart, up to painleve_step_max.
TEST(Chatter, StepsGrowWhileTriesKeepFailingUpToTheLargest) {
  StretchStep h(kStep, 8 * kStep);
  int wait = 1, steps = 0;
  std::vector<double> sizes;  // the size of each step
  while (sizes.size() < 400) {
    sizes.push_back(h.next());
    if (++steps < wait) continue;
    steps = 0;
    wait = retry_wait(wait);
    h.try_failed(wait);
  }
  for (size_t k = 0; k < 63; ++k) EXPECT_EQ(sizes[k], kStep) << k;
  for (size_t k = 63; k < 127; ++k) EXPECT_EQ(sizes[k], 2 * kStep) << k;
  for (size_t k = 127; k < 191; ++k) EXPECT_EQ(sizes[k], 4 * kStep) << k;
  for (size_t k = 191; k < sizes.size(); ++k) EXPECT_EQ(sizes[k], 8 * kStep) << k;
}

// The steps of a span of `steps` steps of kStep, as the event loop takes them (StretchStep::span_step).
std::vector<double> span_sizes(StretchStep& h, int steps) {
  std::vector<double> sizes;
  do sizes.push_back(h.next());
  while ((steps -= h.span_step(steps)) > 0);
  return sizes;
}

// A long span of chatter doubles its step every 64 steps up to the largest, and covers the same
// time: 1024 steps of kStep are 64 + 64 + 64 + 72 steps of 1, 2, 4 and 8 kStep.
TEST(Chatter, ALongSpanGrowsItsStepsOverTheSameTime) {
  StretchStep h(kStep, 8 * kStep);
  const std::vector<double> sizes = span_sizes(h, kMaxChatterStretch);
  ASSERT_EQ(sizes.size(), 264u);
  for (size_t k = 0; k < sizes.size(); ++k) EXPECT_EQ(sizes[k], kStep * (k < 64 ? 1 : k < 128 ? 2 : k < 192 ? 4 : 8)) << k;
  double spanned = 0.0;
  for (double s : sizes) spanned += s;
  EXPECT_NEAR(spanned, kMaxChatterStretch * kStep, 1e-15);
}

// A span of at most 64 steps takes them all at painleve_step, and the tries after it start there
// too; a largest step at painleve_step keeps every span's steps at it.
TEST(Chatter, AShortSpanOrALargestAtTheStepKeepsItsSteps) {
  for (int steps : {1, 2, 32, kMaxChatterSteps}) {
    StretchStep h(kStep, 8 * kStep);
    const std::vector<double> sizes = span_sizes(h, steps);
    EXPECT_EQ(sizes, std::vector<double>(static_cast<size_t>(steps), kStep)) << steps;
    EXPECT_EQ(h.next(), kStep) << steps;
  }
  StretchStep fixed(kStep, kStep);
  EXPECT_EQ(span_sizes(fixed, kMaxChatterStretch), std::vector<double>(kMaxChatterStretch, kStep));
}

// A stretch resumed at the size the last ended with (8 kStep) covers 1024 steps' time in 128 steps
// of that size; a first size outside [painleve_step, painleve_step_max] is brought into it.
TEST(Chatter, AResumedStretchStartsAtItsFirstSize) {
  StretchStep resumed(kStep, 8 * kStep, 8 * kStep);
  const std::vector<double> sizes = span_sizes(resumed, kMaxChatterStretch);
  EXPECT_EQ(sizes, std::vector<double>(kMaxChatterStretch / 8, 8 * kStep));
  StretchStep twice(kStep, 8 * kStep, 2 * kStep);
  const std::vector<double> grown = span_sizes(twice, 256);  // 64 at 2, then 4 kStep
  ASSERT_EQ(grown.size(), 96u);
  for (size_t k = 0; k < grown.size(); ++k) EXPECT_EQ(grown[k], kStep * (k < 64 ? 2 : 4)) << k;
  EXPECT_EQ(StretchStep(kStep, 8 * kStep, 0.0).next(), kStep);
  EXPECT_EQ(StretchStep(kStep, 8 * kStep, 20 * kStep).next(), 8 * kStep);
}

TEST(Chatter, AStretchThatEndsSoonOrALargestAtTheStepKeepsItsSteps) {
  StretchStep soon(kStep, 8 * kStep);
  for (int wait = 1; wait < kMaxChatterSteps;) {
    wait = retry_wait(wait);
    if (wait < kMaxChatterSteps) soon.try_failed(wait);
    EXPECT_EQ(soon.next(), kStep) << wait;
  }
  StretchStep fixed(kStep, kStep), below(kStep, 0.0);
  for (int k = 0; k < 10; ++k) {
    fixed.try_failed(kMaxChatterSteps);
    below.try_failed(kMaxChatterSteps);
  }
  EXPECT_EQ(fixed.next(), kStep);
  EXPECT_EQ(below.next(), kStep);
  StretchStep odd(kStep, 5 * kStep);  // not a doubling of painleve_step: the last doubling stops at it
  for (int k = 0; k < 10; ++k) odd.try_failed(kMaxChatterSteps);
  EXPECT_EQ(odd.next(), 5 * kStep);
}

}  // namespace
}  // namespace impactsim
