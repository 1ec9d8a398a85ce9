#include "app/run_progress.hpp"

#include <unistd.h>

#include <chrono>

namespace impactsim {
namespace {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

RunProgress::RunProgress(double t_end, bool quiet, bool tty, std::FILE* out, std::function<double()> clock)
    : t_end_(t_end), quiet_(quiet), tty_(tty), out_(out), clock_(std::move(clock)), start_(clock_()) {}

RunProgress::RunProgress(double t_end, bool quiet)
    : RunProgress(t_end, quiet, isatty(STDERR_FILENO) != 0, stderr, steady_seconds) {}

void RunProgress::at(double t) {
  if (quiet_) return;
  const double now = clock_();
  if (now - start_ < kFirstAfter) return;
  if (last_ >= 0 && now - last_ < (tty_ ? 0.2 : 5.0)) return;
  print(t, now, false);
}

void RunProgress::done(double t) {
  if (quiet_ || last_ < 0) return;
  print(t, clock_(), true);
}

void RunProgress::print(double t, double now, bool last) {
  last_ = now;
  ++lines_;
  const double wall = now - start_;
  std::fprintf(out_, "%srun: t = %.4g of %.4g s simulated in %.1f s", tty_ ? "\r" : "", t, t_end_, wall);
  // The pace so far: piles slow down as they settle into chatter, so it is a guess.
  if (!last && t > 0 && t < t_end_) std::fprintf(out_, ", ETA %.0f s at this pace", wall * (t_end_ - t) / t);
  std::fprintf(out_, "%s", tty_ ? (last ? "\033[K\n" : "\033[K") : "\n");
  std::fflush(out_);
}

}  // namespace impactsim
