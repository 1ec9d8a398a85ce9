#pragma once
// The signals that end a long command from outside (SIGINT from a terminal's Ctrl-C, SIGTERM from
// a scheduler, SIGHUP from a closed terminal), caught while an InterruptWatch lives: the command
// stops taking new work, keeps what is complete, says how to resume, and exits 128 + the signal
// as a shell expects. The handler only records the signal (async-signal-safe).
namespace impactsim {

class InterruptWatch {
 public:
  InterruptWatch();   // installs the handlers
  ~InterruptWatch();  // restores the ones before
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;
};

// The signal caught since the watch began (0: none).
int caught_signal();
// "SIGTERM", ...
const char* signal_name(int signal);

}  // namespace impactsim
