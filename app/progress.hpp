#pragma once
// A progress line on stderr for commands that produce many items (batch runs, impact samples):
// "batch: 300/2000 runs, 410 runs/s, ETA 4.1 s". On a terminal it is redrawn in place at most every
// 200 ms; into a file or pipe, one line every 5 s and one at the end. Silent with --quiet.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace impactsim {

class Progress {
 public:
  Progress(std::string command, std::string unit, long total, bool quiet)
      : command_(std::move(command)), unit_(std::move(unit)), total_(total), quiet_(quiet), tty_(isatty(STDERR_FILENO)) {}

  // `done` of the total are finished.
  void update(long done) {
    if (quiet_) return;
    const auto now = std::chrono::steady_clock::now();
    if (done < total_ && now - last_ < std::chrono::seconds(tty_ ? 0 : 5) + std::chrono::milliseconds(200)) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double rate = done / std::max(elapsed, 1e-9);
    const double eta = rate > 0 ? (total_ - done) / rate : 0;
    std::fprintf(stderr, "%s%s: %ld/%ld %s, %.0f %s/s, ETA %.1f s%s", tty_ ? "\r" : "", command_.c_str(), done, total_,
                 unit_.c_str(), rate, unit_.c_str(), eta, tty_ && done < total_ ? "" : "\n");
  }

 private:
  std::string command_, unit_;
  long total_;
  bool quiet_, tty_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

}  // namespace impactsim
