#include "core/stall_watch.hpp"

#include <algorithm>
#include <cstdio>

#include "core/events.hpp"

namespace impactsim {
namespace {

std::string steps_text(double n) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", n);
  return text;
}

}  // namespace

StallWatch::StallWatch(const SimulationSettings& s, const ContactModel& contacts, bool steps_through_chatter)
    : window_(s.stall_window), max_steps_(s.max_steps), t_end_(s.t_end), contacts_(contacts),
      fired_(static_cast<size_t>(contacts.size()) * kGuardKinds, 0), steps_through_chatter_(steps_through_chatter) {}

void StallWatch::note(const FiredGuard& crossed) {
  ++fired_[static_cast<size_t>(crossed.contact) * kGuardKinds + static_cast<int>(crossed.kind)];
}

void StallWatch::check(long steps, double t) {
  if (window_ <= 0) return;
  if (steps - start_steps_ < window_) return;
  const double advanced = t - start_t_;
  const std::string pace = format_time(t) + " s: the last " + std::to_string(steps - start_steps_) +
                           " steps advanced it by " + format_time(advanced) + " s";
  if (advanced < 1e-6 * t_end_)
    throw SimulationError(t, StopReason::stalled,
                          "integration stalled at t = " + pace +
                              " (the step size collapsed; simulation.stall_window sets the window)" + most_fired());
  const double needed = (t_end_ - t) / advanced * static_cast<double>(steps - start_steps_);
  // steps counts rejected tries too, so it can pass max_steps before the step cap (accepted steps) does.
  const long left = std::max(0L, static_cast<long>(max_steps_ - steps));
  if (needed > kPaceMargin * static_cast<double>(left))
    throw SimulationError(t, StopReason::step_limit,
                          "integration stopped at t = " + pace + "; at that pace t_end needs about " + steps_text(needed) +
                              " more steps, " +
                              (left > 0 ? "more than " + steps_text(kPaceMargin) + " times the " + std::to_string(left) +
                                              " simulation.max_steps leaves"
                                        : std::string("and the simulation.max_steps steps are spent")) +
                              most_fired());
  start_steps_ = steps;
  start_t_ = t;
  std::fill(fired_.begin(), fired_.end(), 0L);
}

// "; in that window the guards that fired most were stick of 's4@s5' (1978 times), ..." (up to three).
std::string StallWatch::most_fired() const {
  std::vector<size_t> order;
  for (size_t k = 0; k < fired_.size(); ++k)
    if (fired_[k] > 0) order.push_back(k);
  if (order.empty()) return "";
  const size_t shown = std::min<size_t>(3, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
                    [&](size_t a, size_t b) { return fired_[a] > fired_[b] || (fired_[a] == fired_[b] && a < b); });
  std::string text = "; in that window the guards that fired most were";
  for (size_t n = 0; n < shown; ++n) {
    const size_t k = order[n];
    text += std::string(n == 0 ? " " : ", ") + std::string(guard_kind_name(static_cast<GuardKind>(k % kGuardKinds))) +
            " of '" + contacts_.contact(static_cast<int>(k / kGuardKinds)).name + "' (" + std::to_string(fired_[k]) +
            " times)";
  }
  if (!steps_through_chatter_) text += " (simulation.contact.painleve_step > 0 would step through guards that chatter)";
  return text;
}

}  // namespace impactsim
