#pragma once
// Telling the event loop's chatter from a run's ordinary events.
//
// Events that come back again and again without a collision, within a step of each other, are
// the event loop failing to find modes the dynamics keep:
//   - a guard that fires and changes nothing (the acceleration LCP keeps every mode) fires again
//     at once where the mode is not what the dynamics do: a slide from rest whose slip start gave
//     up accelerates against its slip direction (a stick guard firing at rounding-sized intervals,
//     a rounding-sized slip crossing zero);
//   - a contact that sticks, slips and is closed again by the Zeno rule, over and over (cycles of
//     microseconds in a frictional pile, events without end).
// After kChatterEvents such events in a row within painleve_step of the first, the run steps
// through (core/painleve_step.hpp), as where no modes are consistent (core/hybrid.cpp). In a
// model of kChatterWindowFrom velocities or more (6 free bodies, or such an island on its own
// clock) the span is kChatterWindow steps' time: events without a collision more often than 8,000
// a second there (16 in 2 ms at the default step) are chatter too: frictional sphere piles spent
// most of their worst runs on stretches of stick, slip and Zeno events a fraction of a millisecond
// apart, each several times the cost of a step over the same time. Smaller models keep
// the exact path: a block rocking to rest ends its cascade of slow impacts and lift-offs with the
// Zeno rule, not a step, and the five dominoes (30 velocities) topple event by event. Chatter
// that comes back soon after (within kChatterRecurs steps' time of the last stepping's end)
// doubles the number of steps taken, up to kMaxChatterStretch; the pile above chattered again after
// nearly every single step. A cascade of impacts at one instant (a row of balls) has collisions,
// and is left to the impact laws; but in a model of kResidueFrom velocities or more (16 free
// bodies), within kChatterWindow steps' time of a stepping's end, collisions count as chatter too:
// the steps leave contacts approaching at up to g times a step (mm/s, above v_zeno), and a
// frictionless 50-sphere pile's returns to the exact path were 30 to 300 events each (an impact
// among every ten), two fifths of its cost. Smaller models, and a longer span, are left out for
// what they did to other piles (docs/guide.md). Where every contact is plastic (e = 0), a model
// of kResidueFrom velocities or more counts its collisions as chatter at any time, those faster
// than a step leaves a contact approaching (gravity times painleve_step_max; slower ones only
// within the span after a stepping, as above): a step is plastic itself (the scheme's LCP has no
// restitution), so it stands in for such collisions without changing what they do, only when
// they happen within the step. Counting the slower ones too kept a frictionless 20-sphere pile
// stepping through its own residue, and it never came to rest. A frictionless 50-sphere pile's
// landing, its spheres falling onto the pile until t = 0.4 s, was some 2,000 events 50 us apart,
// impacts (two thirds of them losing more than 1 mJ) and the lift-offs and Zeno closes between
// them, each a mode choice over the pile; with its steps closing the contacts they reach
// (core/painleve_step.hpp) it ran in 2.7 s instead of 4.6. Elastic collisions are left to the
// impact laws.
// The same guard crossing again at one instant (kRepeatsAtOneInstant times in a row, each within
// rounding of the last: kInstant) is chatter at once, in a model of any size: the loop is making
// no progress. A frictional 10-sphere pile's stick guard fired 15 times within 8e-13 s, each event
// a failed search for slips from rest (20 ms each, 0.3 s of a 3.2 s run), before the count above
// was reached; the state, and so the steps that followed, were the same.
// A slide that ends as it starts (FailedSlips), kFailedSlips times in a row at one contact, is
// chatter too, in a model of any size: a stick-slip cycle at the cone's edge, each slip undone
// by the contact's own stick guard nanoseconds later and each stick ending again a millisecond
// on, is 16 events in 7 ms, too slow for the counts above, and cost a frictional 10-sphere pile
// 3.8 s of a 5.4 s run (495 such slides, 8 ms of mode choices each).
// In a model of kChatterWindowFrom velocities or more, kSlideChatterEvents of those events placed
// by a slide's guards (slip, stick, hold, follow: a slide starting, stopping, or its friction
// holding or following its slip) within the kChatterWindow steps' span, without a collision, are
// chatter too, before the count of all events reaches kChatterEvents. Each is a mode choice with
// its search for slips from rest (about a millisecond in a frictional 10-sphere pile, against
// 0.45 ms for a step of painleve_step or more), and they come in runs (a held slide stopping along
// its direction and starting another across it, microseconds long) that the count of 16 caught
// only some of the time. Twelve frictional 10-sphere piles took 14.4 s instead of 21.5, stepping
// 0.61 of their second instead of 0.51 (docs/piles_vs_mujoco.md).
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace impactsim {

constexpr int kChatterEvents = 16;
constexpr int kSlideChatterEvents = 6;
constexpr int kChatterWindow = 20;
constexpr int kChatterWindowFrom = 36;
constexpr int kChatterRecurs = 16;
constexpr int kResidueFrom = 96;
constexpr int kMaxChatterSteps = 64;
constexpr int kRepeatsAtOneInstant = 3;
constexpr double kInstant = 1e-12;  // relative to max(1, t) [s]
constexpr int kFailedSlips = 4;
constexpr double kFailedSlipFraction = 1e-3;  // of painleve_step: a slide this short failed
// The most steps one stretch of chatter takes (1024 of 1e-4 s: 0.1 s). A frictionless 50-sphere
// pile chattered again after each stretch of 64 steps from t = 0.4 s to its end (it never comes to
// rest: contacts among its redundant ones lift off and close again microseconds apart); the
// exact phases between took three fifths of the run for 1e-3 of its time.
constexpr int kMaxChatterStretch = 1024;

// The steps to take before the next try at consistent modes, after a try that waited `wait`.
inline int retry_wait(int wait) { return std::min(2 * wait, kMaxChatterSteps); }

// The size of each Painleve step in one stretch of them [s]. It starts at h0
// (simulation.contact.painleve_step) and stays there while tries at consistent modes come every
// 1, 2, 4 ... 32 steps: a stretch that ends within 63 steps takes the steps it always took. From
// then on each try that fails doubles it, up to h_max (painleve_step_max). A 50-box pile whose
// modes stay inconsistent from t = 0.21 s to its end stepped 1e-4 s at a time, 8,052 steps of some
// 25 ms each where MuJoCo takes 1 ms steps. The scheme's error is O(h) either way, and a step
// closes the open contacts it would run past within itself (core/painleve_step.hpp).
//
// A stretch of chatter spans `steps` steps of h0 (ChatterWatch); within that span the size
// doubles too, after every kMaxChatterSteps steps at one size, up to h_max: a stretch of 1024
// steps' time takes 64 at h0, 64 at 2 h0, 64 at 4 h0 and the rest at 8 h0 (264 in all). A span of
// at most 64 steps takes them all at h0, as before.
//
// A stretch of chatter that comes back soon after the last (ChatterWatch::resume_size) starts at
// the size the last one ended with rather than at h0: the pile is in the same regime, and each
// restart at h0 took 192 steps over the 448 h0 before its steps reached 8 h0 (a frictionless
// 50-sphere pile's returns took 2,482 steps over its last 0.6 s, 1,469 of them at h0 or 2 h0).
class StretchStep {
 public:
  StretchStep(double h0, double h_max, double h_first = 0.0)
      : h0_(h0), h_(std::clamp(h_first, h0, std::max(h0, h_max))), h_max_(std::max(h0, h_max)) {}
  double next() const { return h_; }
  // A try found no consistent modes, and the next comes after `wait` steps (retry_wait).
  void try_failed(int wait) {
    if (wait >= kMaxChatterSteps) h_ = std::min(2 * h_, h_max_);
  }
  // A step of the span was taken at next(), `left` steps of h0 of the span before it: returns how
  // many steps of h0 it stood for.
  int span_step(int left) {
    const int worth = std::max(1, static_cast<int>(std::lround(h_ / h0_)));
    if (++at_size_ == kMaxChatterSteps && left > worth) {
      at_size_ = 0;
      h_ = std::min(2 * h_, h_max_);
    }
    return worth;
  }

 private:
  double h0_, h_, h_max_;
  int at_size_ = 0;  // steps of the span taken at h_
};

// Which end of a slide an event's guard marks: slip (a sticking contact starts to slide), stick
// (a sliding contact stops), turn (a slide's friction starts or stops following its slip: hold,
// follow), or none (no slide's guard).
enum class SlideEdge { none, slip, stick, turn };

// Slides that fail: a contact's slide that its own stick guard ends within kFailedSlipFraction of
// painleve_step of the slip guard that started it (2.6e-9 s in the pile above, where the slide's
// acceleration along its slip was slightly negative at once).
class FailedSlips {
 public:
  // An event at t, placed by contact's guard marking `edge` (contact -1: none named); collided:
  // it resolved a collision, which starts every count again. Returns how many slides of that
  // contact in a row have failed, this one the last (0: the event ends no failed slide).
  int note(double t, int contact, SlideEdge edge, bool collided, double painleve_step) {
    if (collided) {
      clear();
      return 0;
    }
    if (contact < 0 || edge == SlideEdge::none || edge == SlideEdge::turn) return 0;
    const size_t i = static_cast<size_t>(contact);
    if (i >= contacts_.size()) contacts_.resize(i + 1);
    Slides& c = contacts_[i];
    if (edge == SlideEdge::slip) {
      c.start = t;
      return 0;
    }
    if (!(t - c.start <= kFailedSlipFraction * painleve_step)) {
      c.failed = 0;
      return 0;
    }
    if (c.failed++ == 0) c.first = c.start;
    return c.failed;
  }
  // When the first of contact's failed slides in a row started (with a count above 0).
  double since(int contact) const { return contacts_[static_cast<size_t>(contact)].first; }
  void clear() {
    for (Slides& c : contacts_) c.failed = 0;
  }

 private:
  struct Slides {
    double start = -std::numeric_limits<double>::infinity();  // the contact's last slip event [s]
    int failed = 0;                                            // its failed slides in a row
    double first = 0.0;                                        // when the first of them started [s]
  };
  std::vector<Slides> contacts_;
};

class ChatterWatch {
 public:
  // plastic: every contact of the model (or island) has e = 0; then a collision whose fastest
  // approach is above residue_speed [m/s] (faster than any step leaves a contact) counts too.
  explicit ChatterWatch(bool plastic = false, double residue_speed = 0.0)
      : plastic_(plastic), residue_speed_(residue_speed) {}
  // An event at t has been handled in a model (or an island on its own clock) of nv velocities;
  // collided: it resolved a collision; guard: which guard's crossing placed it (any number that
  // tells guards apart; -1: none). Returns how many steps the run should take now (0: none).
  // From kChatterWindowFrom velocities on the events are counted over kChatterWindow steps' time,
  // not one; from kResidueFrom on, collisions within that span of a stepping's end count as chatter,
  // and in a plastic model so do those faster than residue_speed (collision_speed: the event's
  // fastest approach, m/s).
  // contact and edge: the guard's contact and which end of a slide it marks (FailedSlips); the
  // stretch that kFailedSlips failed slides ask for spans at least the time they took. From
  // kChatterWindowFrom velocities on, kSlideChatterEvents of the counted events with an edge are
  // chatter too.
  int chattering(double t, bool collided, double painleve_step, int nv = 0, int guard = -1, int contact = -1,
                 SlideEdge edge = SlideEdge::none, double collision_speed = 0.0) {
    const int window = nv >= kChatterWindowFrom ? kChatterWindow : 1;
    const bool hard = plastic_ && collision_speed > residue_speed_;
    const bool residue = nv >= kResidueFrom && (hard || t - last_end_ < window * painleve_step);
    const bool again = guard >= 0 && guard == last_guard_ && t - last_t_ <= kInstant * std::max(1.0, std::abs(t));
    repeats_ = again ? repeats_ + 1 : 1;
    last_guard_ = guard;
    last_t_ = t;
    const int failed = failed_.note(t, contact, edge, collided, painleve_step);
    if ((collided && !residue) || painleve_step <= 0) {
      count_ = 0;
      repeats_ = 0;
      return 0;
    }
    if (count_ == 0 || t - since_ >= window * painleve_step) count_ = 0, slides_ = 0, since_ = t;
    const bool failing = failed >= kFailedSlips;
    if (collided) slides_ = 0;  // a collision among them (residue): a landing, not a slide's chatter
    if (window > 1 && edge != SlideEdge::none) ++slides_;
    const bool sliding = slides_ >= kSlideChatterEvents;
    if (++count_ < kChatterEvents && !sliding && repeats_ < kRepeatsAtOneInstant && !failing) return 0;
    count_ = 0;
    slides_ = 0;
    repeats_ = 0;
    recurs_ = t - last_end_ < kChatterRecurs * steps_ * painleve_step;
    steps_ = recurs_ ? std::min(2 * steps_, kMaxChatterStretch) : 1;
    if (failing) {
      // A cycle of failed slides comes back after as long as its own count took: a stretch of one
      // step would end before its recurrence could double the next.
      const double span = (t - failed_.since(contact)) / painleve_step;
      while (steps_ < kMaxChatterStretch && steps_ < span) steps_ *= 2;
      failed_.clear();
    }
    return steps_;
  }
  // The stepping ended at t, its last step of size h.
  void stepped(double t, double h) {
    last_end_ = t;
    last_size_ = h;
  }
  // The size the stretch just asked for starts at: where the chatter came back soon after the last
  // stretch, the size that one ended with; else 0 (painleve_step).
  double resume_size() const { return recurs_ ? last_size_ : 0.0; }

 private:
  int count_ = 0;
  int slides_ = 0;  // of count_'s events, those a slide's guard placed (large models only)
  double since_ = 0.0;
  int repeats_ = 0;  // events in a row at one instant placed by last_guard_
  int last_guard_ = -1;
  double last_t_ = -std::numeric_limits<double>::infinity();
  int steps_ = 1;
  bool recurs_ = false;  // the last stretch asked for came soon after the one before
  double last_end_ = -std::numeric_limits<double>::infinity();  // never stepped: no chatter recurs
  double last_size_ = 0.0;
  FailedSlips failed_;
  bool plastic_ = false;        // every contact has e = 0: a large model's collisions count as chatter,
  double residue_speed_ = 0.0;  // those faster than this [m/s]
};

}  // namespace impactsim
