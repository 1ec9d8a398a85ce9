#pragma once
// One ordered parallel map for the commands that compute many independent items (impact samples,
// batch runs): items are produced chunk by chunk on worker threads and consumed in index order.
// Within a chunk the threads take contiguous blocks of items from a shared counter, so a thread
// that was held up does not leave the others waiting. The consumer (formatting is the producers'
// job; it appends rows and writes them out) runs on the calling thread over the previous chunk
// while the other threads produce the next, and then joins them: writing is off the critical path,
// and no more than `threads` threads ever run. Memory holds two chunks of results; the slots are
// reused, so a producer that fills them in place does not allocate once they have grown.
#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace impactsim {

// produce(i, slot) for i in [first, end), consume(i, slot) in order of i, and chunk_done(next)
// after every chunk (next: the first index not yet consumed). produce must be safe to run on
// several threads at once, and alongside consume and chunk_done, which run on the calling thread,
// a chunk only after every earlier chunk. An
// exception thrown by a producer stops the map once its chunk's threads have joined and every
// earlier chunk has been consumed, and is rethrown here; nothing of that chunk is consumed. An
// exception thrown by consume or chunk_done stops the map the same way and is rethrown here.
template <class T, class Produce, class Consume, class ChunkDone>
void ordered_parallel_map(long first, long end, int threads, long chunk, Produce&& produce, Consume&& consume,
                          ChunkDone&& chunk_done) {
  std::vector<T> slots[2] = {std::vector<T>(static_cast<size_t>(chunk)), std::vector<T>(static_cast<size_t>(chunk))};
  std::vector<std::exception_ptr> errors(static_cast<size_t>(threads));
  std::exception_ptr consume_error;
  auto consume_chunk = [&](const std::vector<T>& done, long base, long count) {
    try {
      for (long i = 0; i < count; ++i) consume(base + i, done[i]);
      chunk_done(base + count);
    } catch (...) {
      consume_error = std::current_exception();
    }
  };
  // About eight blocks per thread and chunk: fine enough to balance, coarse enough that neighbours
  // rarely share a cache line.
  const long block = std::max(1L, std::min(256L, chunk / (8L * threads)));
  long pending_base = first, pending_count = 0;  // produced, not yet consumed: slots[1 - which]
  int which = 0;
  for (long base = first; base < end; base += chunk) {
    const long count = std::min(chunk, end - base);
    std::vector<T>& fill = slots[which];
    std::atomic<long> next_block{0};
    auto work = [&](int k) {
      if (k == 0 && pending_count > 0) consume_chunk(slots[1 - which], pending_base, pending_count);
      try {
        for (long b = next_block++; b * block < count; b = next_block++)
          for (long i = b * block; i < std::min(count, (b + 1) * block); ++i) produce(base + i, fill[i]);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    };
    std::vector<std::thread> pool;
    for (int k = 1; k < threads; ++k) pool.emplace_back(work, k);
    work(0);
    for (auto& t : pool) t.join();
    if (consume_error) std::rethrow_exception(consume_error);
    for (const std::exception_ptr& e : errors)
      if (e) std::rethrow_exception(e);
    pending_base = base;
    pending_count = count;
    which = 1 - which;
  }
  if (pending_count > 0) consume_chunk(slots[1 - which], pending_base, pending_count);
  if (consume_error) std::rethrow_exception(consume_error);
}

}  // namespace impactsim
