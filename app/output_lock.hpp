#pragma once
// One writer per output directory. Every command that writes a directory (run, impact, batch,
// converge, sweep, merge) holds an exclusive lock on DIR/.impactsim.lock (flock) while it writes;
// a second command on the same directory is refused at once, naming the holder's process id,
// rather than interleave its rows with the first's. The kernel drops the lock when the holder's
// process ends, however it ends, so a killed command leaves nothing to clean up.
#include <filesystem>
#include <optional>
#include <string>

namespace impactsim {

class OutputLock {
 public:
  // The lock on dir, or nothing with `why` saying who holds it (or why it cannot be taken).
  static std::optional<OutputLock> acquire(const std::filesystem::path& dir, std::string& why);
  OutputLock(OutputLock&& other) noexcept;
  OutputLock& operator=(OutputLock&& other) noexcept;
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;
  ~OutputLock();

 private:
  explicit OutputLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// The lock on dir, or nothing after logging why (the command then exits with kExitOutput).
std::optional<OutputLock> lock_output_or_report(const std::filesystem::path& dir);

}  // namespace impactsim
