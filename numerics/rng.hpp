#pragma once
// The random generator of every stochastic choice: xoshiro256** (Blackman and Vigna 2018), a
// UniformRandomBitGenerator with a 256-bit state, seeded from one 64-bit seed through SplitMix64 as
// its authors recommend. Cheap to seed, which matters because every sample and every run seeds its
// own generator from (seed, index).
#include <cstdint>
#include <limits>

namespace impactsim {

class Rng {
 public:
  using result_type = std::uint64_t;
  explicit Rng(std::uint64_t seed = 0) {
    for (std::uint64_t& word : s_) {
      seed += 0x9e3779b97f4a7c15ull;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      word = z ^ (z >> 31);
    }
  }
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  result_type operator()() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace impactsim
