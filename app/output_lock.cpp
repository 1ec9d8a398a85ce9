#include "app/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <spdlog/spdlog.h>

namespace impactsim {

std::optional<OutputLock> OutputLock::acquire(const std::filesystem::path& dir, std::string& why) {
  const std::filesystem::path path = dir / ".impactsim.lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    why = path.string() + ": cannot open the directory's lock file: " + std::strerror(errno);
    return std::nullopt;
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    char holder[32] = {};
    const ssize_t n = ::pread(fd, holder, sizeof holder - 1, 0);
    ::close(fd);
    why = dir.string() + (error == EWOULDBLOCK ? " is being written by another impactsim command" : " cannot be locked");
    if (error == EWOULDBLOCK && n > 0) why += std::string(" (pid ") + std::string(holder, static_cast<size_t>(n)) + ")";
    if (error != EWOULDBLOCK) why += std::string(": ") + std::strerror(error);
    why += "; wait for it to end, or write elsewhere with -o";
    return std::nullopt;
  }
  const std::string pid = std::to_string(::getpid());
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size()))
    spdlog::debug("{}: could not record this process's id", path.string());  // the lock itself holds
  return OutputLock(fd);
}

OutputLock::OutputLock(OutputLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

OutputLock::~OutputLock() {
  if (fd_ >= 0) ::close(fd_);  // closing drops the lock
}

std::optional<OutputLock> lock_output_or_report(const std::filesystem::path& dir) {
  std::string why;
  std::optional<OutputLock> lock = OutputLock::acquire(dir, why);
  if (!lock) spdlog::error("{}", why);
  return lock;
}

}  // namespace impactsim
