#pragma once
// What makes the rows of runs.csv one batch, written as DIR/batch.json when a batch or a slice
// starts: the scene (path and the SHA-256 of its text), the law, the seed, the number of runs N,
// the slice (first, count) and runs.csv's columns. Resume refuses to continue a different batch;
// merge refuses slices of different batches and slices that do not cover 0..N-1 exactly once.
#include <filesystem>
#include <optional>
#include <string>

namespace impactsim {

struct BatchIdentity {
  std::string scene;         // the path as given
  std::string scene_sha256;  // scene_content_sha256: the scene file's text (and its URDF's)
  std::string law;
  unsigned long long seed = 0;
  long runs = 0;   // N
  long first = 0;  // this slice: runs first .. first + count - 1
  long count = 0;
  std::string columns;  // runs.csv's header line
};

// Writes dir/batch.json. Throws std::runtime_error naming the file if it cannot.
void write_batch_identity(const std::filesystem::path& dir, const BatchIdentity& identity);

// dir/batch.json, or nothing with `error` saying why (missing, unreadable, malformed).
std::optional<BatchIdentity> read_batch_identity(const std::filesystem::path& dir, std::string& error);

// "" when a and b are slices of one batch (same scene text, law, seed, N and columns), else what
// differs, e.g. "seed 5 (was 6)".
std::string batch_difference(const BatchIdentity& a, const BatchIdentity& b);

}  // namespace impactsim
