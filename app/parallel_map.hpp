#pragma once
// One ordered parallel map for the commands that compute many independent items (impact samples,
// batch runs): items are produced on worker threads and consumed in index order, a chunk at a time.
// The threads are started once and take contiguous blocks of items from a shared counter; there is
// no barrier between chunks, so a slow item holds back only the consumption of its own chunk, never
// the other threads, which go on producing up to two chunks ahead of the consumer. The consumer
// (formatting is the producers' job; it appends rows and writes them out) is the calling thread,
// which produces blocks itself while the next chunk is not complete: writing is off the critical
// path, and no more than `threads` threads ever run. Memory holds two chunks of results; the slots
// are reused, so a producer that fills them in place does not allocate once they have grown.
#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace impactsim {

namespace parallel_map_detail {

// The shared bookkeeping of one map, all of it guarded by `mutex`. Indices are relative to `first`.
struct Schedule {
  long total, block, window;  // items, items per block, items produced ahead of the consumer at most
  std::mutex mutex;
  std::condition_variable space;     // a worker waits here for the window to move
  std::condition_variable progress;  // the consumer waits here for blocks to finish
  long next_block = 0;               // the first block not yet claimed
  long done_blocks = 0;              // blocks 0 .. done_blocks - 1 are all produced
  long consumed = 0;                 // items 0 .. consumed - 1 are consumed, their slots free
  long failed = total;               // the lowest item whose producer threw (total: none)
  std::exception_ptr failure;        // that producer's exception
  bool halt = false;                 // the consumer stopped: claim nothing more
  std::vector<char> finished;        // ring of blocks finished beyond done_blocks

  Schedule(long total_, long block_, long window_)
      : total(total_), block(block_), window(window_), finished(static_cast<size_t>(window_ / block_ + 2), 0) {}

  long block_end(long b) const { return std::min(total, (b + 1) * block); }
  // Nothing is left to claim: every block is claimed, the rest lies past a failed item, or the
  // consumer stopped.
  bool exhausted() const { return halt || next_block * block >= std::min(total, failed); }
  // A block may be claimed while one is left and it lies inside the window.
  bool claimable() const { return !exhausted() && block_end(next_block) <= consumed + window; }
  // Locked: record block b as produced.
  void finish(long b) {
    finished[static_cast<size_t>(b) % finished.size()] = 1;
    while (finished[static_cast<size_t>(done_blocks) % finished.size()]) {
      finished[static_cast<size_t>(done_blocks) % finished.size()] = 0;
      ++done_blocks;
    }
    progress.notify_one();
  }
};

// Produces block b's items into the ring of slots; a throwing item ends the block and is recorded.
template <class T, class Produce>
void produce_block(Schedule& s, long first, long b, std::vector<T>& slots, Produce& produce) {
  for (long i = b * s.block; i < s.block_end(b); ++i) {
    try {
      produce(first + i, slots[static_cast<size_t>(i % s.window)]);
    } catch (...) {
      std::lock_guard<std::mutex> lock(s.mutex);
      if (i < s.failed) {
        s.failed = i;
        s.failure = std::current_exception();
      }
      return;
    }
  }
}

// Locked on entry and on return: claims the next block, produces it unlocked, records it as done.
template <class T, class Produce>
void produce_next(Schedule& s, std::unique_lock<std::mutex>& lock, long first, std::vector<T>& slots, Produce& produce) {
  const long b = s.next_block++;
  lock.unlock();
  produce_block(s, first, b, slots, produce);
  lock.lock();
  s.finish(b);
}

}  // namespace parallel_map_detail

// produce(i, slot) for i in [first, end), consume(i, slot) in order of i, and chunk_done(next)
// after every chunk of `chunk` items (next: the first index not yet consumed). produce must be safe
// to run on several threads at once, and alongside consume and chunk_done, which run on the calling
// thread, a chunk only once every item of it is produced. An exception thrown by a producer stops
// the map once every chunk before the failing item's is consumed, and the lowest failing item's
// exception is rethrown here; nothing of that chunk or after it is consumed. An exception thrown by
// consume or chunk_done stops the map the same way and is rethrown here.
template <class T, class Produce, class Consume, class ChunkDone>
void ordered_parallel_map(long first, long end, int threads, long chunk, Produce&& produce, Consume&& consume,
                          ChunkDone&& chunk_done) {
  if (end <= first) return;
  threads = std::max(1, threads);
  chunk = std::max(1L, chunk);
  // About eight blocks per thread and chunk: fine enough to balance, coarse enough that neighbours
  // rarely share a cache line and the counter is rarely contended.
  const long block = std::max(1L, std::min(256L, chunk / (8L * threads)));
  parallel_map_detail::Schedule s(end - first, block, 2 * chunk);
  std::vector<T> slots(static_cast<size_t>(s.window));

  auto worker = [&] {
    std::unique_lock<std::mutex> lock(s.mutex);
    for (;;) {
      s.space.wait(lock, [&] { return s.claimable() || s.exhausted(); });
      if (!s.claimable()) return;
      parallel_map_detail::produce_next(s, lock, first, slots, produce);
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(threads - 1));
  for (int k = 1; k < threads; ++k) pool.emplace_back(worker);

  std::exception_ptr consume_error;
  {
    std::unique_lock<std::mutex> lock(s.mutex);
    for (long base = 0; base < s.total;) {
      const long target = std::min(base + chunk, s.total);
      const long needed = std::min(target, s.failed);  // every item below it is produced, or is being
      if (std::min(s.total, s.done_blocks * s.block) >= needed) {
        if (s.failed < target) break;
        lock.unlock();
        try {
          for (long i = base; i < target; ++i) consume(first + i, slots[static_cast<size_t>(i % s.window)]);
          chunk_done(first + target);
        } catch (...) {
          consume_error = std::current_exception();
        }
        lock.lock();
        if (consume_error) break;
        s.consumed = base = target;
        s.space.notify_all();
      } else if (s.claimable()) {  // the chunk is not complete: help produce it
        parallel_map_detail::produce_next(s, lock, first, slots, produce);
      } else {
        s.progress.wait(lock);
      }
    }
    s.halt = true;
    s.space.notify_all();
  }
  for (auto& t : pool) t.join();
  if (consume_error) std::rethrow_exception(consume_error);
  if (s.failure) std::rethrow_exception(s.failure);
}

}  // namespace impactsim
