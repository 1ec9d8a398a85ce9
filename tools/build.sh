#!/usr/bin/env bash
# Configures and builds impactsim into build/ (Release unless BUILD_TYPE says otherwise).
#   tools/build.sh            the executable first (build/impactsim), then the tests and benchmarks
#   tools/build.sh TARGET...  only those targets (`tools/build.sh impactsim`: the executable alone)
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" >/dev/null
if (($#)); then
  cmake --build build -j "$(nproc)" --target "$@"
else
  cmake --build build -j "$(nproc)" --target impactsim
  cmake --build build -j "$(nproc)"
fi
