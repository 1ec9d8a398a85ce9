#pragma once
// The seed of sample or run `index` of a job seeded with `seed`: a function of the pair alone, so
// any sample replays on its own and results do not depend on how work is split across threads.
#include <cstdint>

namespace impactsim {

// SplitMix64 (Steele, Lea and Flood 2014): a bijective mixer with good avalanche.
inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

inline std::uint64_t sample_seed(std::uint64_t seed, std::uint64_t index) { return splitmix64(splitmix64(seed) ^ index); }

}  // namespace impactsim
