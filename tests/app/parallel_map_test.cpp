// ordered_parallel_map: every item consumed once, in index order, whatever the thread count and
// chunk size; the consumer overlaps the next chunk's production and a slow item does not hold the
// other threads; a producer's or consumer's exception stops the map with every earlier chunk
// consumed and nothing after it.
#include "app/parallel_map.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace impactsim {
namespace {

struct Log {
  std::vector<long> consumed;       // indices in the order consumed
  std::vector<long> chunk_ends;     // chunk_done's arguments
  std::vector<long> values;         // the slot each index was consumed with
};

Log run_map(long first, long end, int threads, long chunk) {
  Log log;
  ordered_parallel_map<long>(
      first, end, threads, chunk, [](long i, long& slot) { slot = i * i + 7; },
      [&](long i, const long& slot) {
        log.consumed.push_back(i);
        log.values.push_back(slot);
      },
      [&](long next) { log.chunk_ends.push_back(next); });
  return log;
}

TEST(ParallelMap, ConsumesEveryItemOnceInOrderForAnyThreadsAndChunk) {
  for (int threads : {1, 2, 3, 8})
    for (long chunk : {1L, 5L, 64L, 1000L}) {
      const Log log = run_map(10, 347, threads, chunk);
      ASSERT_EQ(log.consumed.size(), 337u) << threads << " threads, chunk " << chunk;
      for (size_t k = 0; k < log.consumed.size(); ++k) {
        EXPECT_EQ(log.consumed[k], 10 + static_cast<long>(k));
        EXPECT_EQ(log.values[k], log.consumed[k] * log.consumed[k] + 7);
      }
      ASSERT_FALSE(log.chunk_ends.empty());
      EXPECT_EQ(log.chunk_ends.back(), 347);
      for (size_t k = 0; k < log.chunk_ends.size(); ++k)
        EXPECT_EQ(log.chunk_ends[k], std::min(347L, 10 + chunk * static_cast<long>(k + 1)));
    }
}

TEST(ParallelMap, EmptyRangeConsumesNothing) {
  const Log log = run_map(5, 5, 4, 16);
  EXPECT_TRUE(log.consumed.empty());
  EXPECT_TRUE(log.chunk_ends.empty());
}

// The consumer of chunk k runs while chunk k + 1 is produced: a consumer that waits for a producer
// of the next chunk to start would deadlock if they were serial, so the map finishing at all shows
// the overlap.
TEST(ParallelMap, ConsumerOverlapsTheNextChunksProduction) {
  std::atomic<long> produced{0};
  long overlapped = 0;
  ordered_parallel_map<long>(
      0, 40, 2, 10, [&](long i, long& slot) {
        slot = i;
        produced.fetch_add(1);
      },
      [&](long i, const long&) {
        if (i % 10 != 0 || i + 10 >= 40) return;
        // Chunk i / 10 is being consumed; the next one's production began alongside.
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (produced.load() <= i + 10 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
        if (produced.load() > i + 10) ++overlapped;
      },
      [](long) {});
  EXPECT_EQ(overlapped, 3);
}

// No barrier between chunks: while item 0 is still being produced, the other threads go on into the
// next chunk. With a barrier per chunk, item 0 would wait for item 5 forever (here: 20 s, failing).
TEST(ParallelMap, ASlowItemDoesNotHoldTheOtherThreadsAtTheChunksEnd) {
  std::atomic<bool> next_chunk_started{false};
  bool waited_out = false;
  std::vector<long> consumed;
  ordered_parallel_map<long>(
      0, 12, 3, 4,
      [&](long i, long& slot) {
        slot = i;
        if (i >= 4) next_chunk_started = true;
        if (i != 0) return;
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (!next_chunk_started && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
        waited_out = !next_chunk_started;
      },
      [&](long i, const long& slot) { consumed.push_back(i * 100 + slot); }, [](long) {});
  EXPECT_FALSE(waited_out);
  ASSERT_EQ(consumed.size(), 12u);
  for (long k = 0; k < 12; ++k) EXPECT_EQ(consumed[k], k * 101);
}

// The lowest failing item's exception is the one rethrown, whichever thread met it first.
TEST(ParallelMap, TheLowestFailingItemsExceptionIsRethrown) {
  for (int threads : {1, 2, 4}) {
    try {
      ordered_parallel_map<long>(
          0, 200, threads, 16,
          [](long i, long& slot) {
            if (i == 150) throw std::runtime_error("item 150");
            if (i == 90) {
              std::this_thread::sleep_for(std::chrono::milliseconds(20));
              throw std::runtime_error("item 90");
            }
            slot = i;
          },
          [](long, const long&) {}, [](long) {});
      FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "item 90") << threads << " threads";
    }
  }
}

TEST(ParallelMap, ProducerFailureKeepsEveryEarlierChunkAndNothingAfter) {
  for (int threads : {1, 3}) {
    std::vector<long> consumed;
    EXPECT_THROW(ordered_parallel_map<long>(
                     0, 100, threads, 10,
                     [](long i, long& slot) {
                       if (i == 57) throw std::runtime_error("item 57");
                       slot = i;
                     },
                     [&](long i, const long&) { consumed.push_back(i); }, [](long) {}),
                 std::runtime_error);
    ASSERT_EQ(consumed.size(), 50u) << threads << " threads";  // chunks 0..4, not the failing chunk 5
    for (long k = 0; k < 50; ++k) EXPECT_EQ(consumed[k], k);
  }
}

TEST(ParallelMap, ConsumerFailureStopsTheMap) {
  std::vector<long> done;
  try {
    ordered_parallel_map<long>(
        0, 100, 2, 10, [](long i, long& slot) { slot = i; }, [](long, const long&) {},
        [&](long next) {
          done.push_back(next);
          if (next == 30) throw std::runtime_error("disk full");
        });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "disk full");
  }
  EXPECT_EQ(done, (std::vector<long>{10, 20, 30}));
}

}  // namespace
}  // namespace impactsim
