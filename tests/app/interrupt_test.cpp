// SIGINT, SIGTERM and SIGHUP are recorded, not fatal, while an InterruptWatch lives; the handlers
// before it are back once it ends.
#include <gtest/gtest.h>

#include <csignal>

#include "app/interrupt.hpp"

namespace impactsim {
namespace {

// The handler installed for `signal` now.
void (*handler_of(int signal))(int) {
  struct sigaction now = {};
  sigaction(signal, nullptr, &now);
  return now.sa_handler;
}

TEST(Interrupt, SignalsAreRecordedWhileWatched) {
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
    const InterruptWatch watch;
    EXPECT_EQ(caught_signal(), 0);
    ASSERT_EQ(std::raise(signal), 0);  // would end the test process without the watch
    EXPECT_EQ(caught_signal(), signal);
  }
  EXPECT_STREQ(signal_name(SIGINT), "SIGINT");
  EXPECT_STREQ(signal_name(SIGTERM), "SIGTERM");
  EXPECT_STREQ(signal_name(SIGHUP), "SIGHUP");
  EXPECT_STREQ(signal_name(SIGUSR1), "a signal");
}

TEST(Interrupt, TheHandlersBeforeAreRestored) {
  void (*const before)(int) = handler_of(SIGTERM);
  {
    const InterruptWatch watch;
    EXPECT_NE(handler_of(SIGTERM), before);
  }
  EXPECT_EQ(handler_of(SIGTERM), before);
  const InterruptWatch again;  // a new watch starts with no signal caught
  EXPECT_EQ(caught_signal(), 0);
}

}  // namespace
}  // namespace impactsim
