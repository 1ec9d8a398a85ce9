#include "app/interrupt.hpp"

#include <atomic>
#include <csignal>

namespace impactsim {
namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the handler writes it");

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_before[3];

extern "C" void record_signal(int signal) { g_signal.store(signal); }

}  // namespace

InterruptWatch::InterruptWatch() {
  g_signal.store(0);
  struct sigaction action = {};
  action.sa_handler = record_signal;
  sigemptyset(&action.sa_mask);
  for (int k = 0; k < 3; ++k) sigaction(kSignals[k], &action, &g_before[k]);
}

InterruptWatch::~InterruptWatch() {
  for (int k = 0; k < 3; ++k) sigaction(kSignals[k], &g_before[k], nullptr);
}

int caught_signal() { return g_signal.load(); }

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
  }
  return "a signal";
}

}  // namespace impactsim
