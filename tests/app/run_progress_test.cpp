// The run's progress line: nothing for a short run, then a line every 5 s into a file (redrawn in
// place on a terminal), a last line at the end, nothing at all with --quiet.
#include "app/run_progress.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace impactsim {
namespace {

// What was written to a temporary file.
std::string contents(std::FILE* f) {
  std::string out;
  std::rewind(f);
  for (int c; (c = std::fgetc(f)) != EOF;) out += static_cast<char>(c);
  return out;
}

struct FakeRun {
  double now = 100.0;  // wall seconds
  std::FILE* out = std::tmpfile();
  ~FakeRun() { std::fclose(out); }
  RunProgress progress(bool quiet, bool tty) {
    return RunProgress(1.0, quiet, tty, out, [this] { return now; });
  }
  // n output rows evenly over the simulated second, `wall` seconds apart, then the end.
  void rows(RunProgress& p, int n, double wall) {
    for (int k = 1; k <= n; ++k) {
      now += wall;
      p.at(static_cast<double>(k) / n);
    }
    p.done(1.0);
  }
};

TEST(RunProgress, AShortRunPrintsNothing) {
  FakeRun run;
  RunProgress p = run.progress(false, false);
  run.rows(p, 10, 0.1);  // 1 s of wall time in all: under kFirstAfter
  EXPECT_EQ(p.lines(), 0);
  EXPECT_EQ(contents(run.out), "");
}

TEST(RunProgress, ALongRunPrintsEveryFiveSecondsAndAtItsEnd) {
  FakeRun run;
  RunProgress p = run.progress(false, false);
  run.rows(p, 100, 1.0);  // 1 s of wall time per 0.01 s simulated: 100 s in all
  // At 2 s (the first line), then every 5 s: 2, 7, ..., 97 (20 lines), and the last.
  EXPECT_EQ(p.lines(), 21);
  const std::string text = contents(run.out);
  EXPECT_EQ(text.rfind("run: t = 0.02 of 1 s simulated in 2.0 s, ETA 98 s at this pace\n", 0), 0u) << text;
  EXPECT_NE(text.find("\nrun: t = 1 of 1 s simulated in 100.0 s\n"), std::string::npos) << text;
  EXPECT_EQ(text.find('\r'), std::string::npos);
}

TEST(RunProgress, OnATerminalTheLineIsRedrawnInPlace) {
  FakeRun run;
  RunProgress p = run.progress(false, true);
  run.rows(p, 100, 1.0);
  const std::string text = contents(run.out);
  EXPECT_EQ(p.lines(), 99 + 1);  // every row from 2 s on (the second), and the last
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);  // only the last line ends one
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(text.front(), '\r');
}

TEST(RunProgress, QuietPrintsNothing) {
  FakeRun run;
  RunProgress p = run.progress(true, false);
  run.rows(p, 100, 1.0);
  EXPECT_EQ(p.lines(), 0);
  EXPECT_EQ(contents(run.out), "");
}

}  // namespace
}  // namespace impactsim
