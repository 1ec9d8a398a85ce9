// One writer per output directory: a second lock on a directory is refused with the holder's pid,
// and the lock is free again once its holder is gone.
#include <gtest/gtest.h>

#include <unistd.h>

#include "app/output_lock.hpp"
#include "tests/app/cli.hpp"

namespace impactsim {
namespace {

using namespace impactsim::testing;

TEST(OutputLock, ASecondWriterIsRefusedNamingTheHoldersPid) {
  const fs::path dir = fresh_dir("output_lock");
  std::string why;
  std::optional<OutputLock> first = OutputLock::acquire(dir, why);
  ASSERT_TRUE(first) << why;
  EXPECT_EQ(read_all(dir / ".impactsim.lock"), std::to_string(::getpid()));
  // flock locks belong to an open file: a second open in the same process conflicts like another process.
  EXPECT_FALSE(OutputLock::acquire(dir, why));
  EXPECT_EQ(why, dir.string() + " is being written by another impactsim command (pid " + std::to_string(::getpid()) +
                     "); wait for it to end, or write elsewhere with -o");
  // A moved lock still holds; a destroyed one frees the directory.
  std::optional<OutputLock> moved = std::move(first);
  first.reset();
  EXPECT_FALSE(OutputLock::acquire(dir, why));
  moved.reset();
  EXPECT_TRUE(OutputLock::acquire(dir, why)) << why;
}

TEST(OutputLock, ADirectoryThatCannotHoldTheLockFileIsNamed) {
  std::string why;
  EXPECT_FALSE(OutputLock::acquire("/nonexistent-dir", why));
  EXPECT_EQ(why.rfind("/nonexistent-dir/.impactsim.lock: cannot open the directory's lock file: ", 0), 0u) << why;
  EXPECT_FALSE(lock_output_or_report("/nonexistent-dir"));
}

}  // namespace
}  // namespace impactsim
