#pragma once
// One ordered parallel map for the commands that compute many independent items (impact samples,
// batch runs): items are produced chunk by chunk on worker threads, thread k taking the k-th
// contiguous block of a chunk (no false sharing between neighbours), and consumed on the calling
// thread in index order. Memory holds one chunk of results; the slots are reused, so a producer
// that fills them in place does not allocate once they have grown.
#include <exception>
#include <thread>
#include <vector>

namespace impactsim {

// produce(i, slot) for i in [first, end), consume(i, slot) in order of i, and chunk_done(next)
// after every chunk (next: the first index not yet consumed). produce must be safe to run on
// several threads at once. An exception thrown by a producer stops the map after its chunk's
// threads have joined and is rethrown here; nothing of that chunk is consumed.
template <class T, class Produce, class Consume, class ChunkDone>
void ordered_parallel_map(long first, long end, int threads, long chunk, Produce&& produce, Consume&& consume,
                          ChunkDone&& chunk_done) {
  std::vector<T> slots(static_cast<size_t>(chunk));
  std::vector<std::exception_ptr> errors(static_cast<size_t>(threads));
  for (long base = first; base < end; base += chunk) {
    const long count = std::min(chunk, end - base);
    auto work = [&](int k) {
      try {
        for (long i = count * k / threads; i < count * (k + 1) / threads; ++i) produce(base + i, slots[i]);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    };
    std::vector<std::thread> pool;
    for (int k = 1; k < threads; ++k) pool.emplace_back(work, k);
    work(0);
    for (auto& t : pool) t.join();
    for (const std::exception_ptr& e : errors)
      if (e) std::rethrow_exception(e);
    for (long i = 0; i < count; ++i) consume(base + i, slots[i]);
    chunk_done(base + count);
  }
}

}  // namespace impactsim
