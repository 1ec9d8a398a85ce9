#pragma once
// A long run's progress on stderr: "run: t = 0.42 of 1 s simulated in 12.5 s, ETA 17 s at this
// pace". A pile can take minutes with nothing else to show; a short run prints nothing: the first
// line comes once the run has taken kFirstAfter seconds of wall time. On a terminal the line is
// then redrawn in place at most every 200 ms, into a file or pipe one line every 5 s; a last line
// at the end once any was printed. Silent with --quiet.
#include <cstdio>
#include <functional>
#include <string>

namespace impactsim {

class RunProgress {
 public:
  static constexpr double kFirstAfter = 2.0;  // [s] of wall time

  // t_end: the run's end [s simulated]; clock: wall seconds since any fixed instant.
  RunProgress(double t_end, bool quiet, bool tty, std::FILE* out, std::function<double()> clock);
  // For stderr and the steady clock.
  RunProgress(double t_end, bool quiet);

  // The run has reached simulated time t.
  void at(double t);
  // The run ended at simulated time t (finished or stopped).
  void done(double t);

  int lines() const { return lines_; }  // lines printed (redraws on a terminal count)

 private:
  void print(double t, double now, bool last);

  double t_end_;
  bool quiet_, tty_;
  std::FILE* out_;
  std::function<double()> clock_;
  double start_, last_ = -1.0;  // last_ < 0: nothing printed yet
  int lines_ = 0;
};

}  // namespace impactsim
