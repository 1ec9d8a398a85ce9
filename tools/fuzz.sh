#!/usr/bin/env bash
# Fuzzes the scene loader with libFuzzer (clang, from Debian) under AddressSanitizer and
# UndefinedBehaviorSanitizer: tools/fuzz.sh [SECONDS] (default 600). The corpus starts from the
# shipped scenes, the bad-scene fixtures and tests/fuzz/regressions, with a dictionary of every
# scene key. An input that crashes, hangs or throws anything but a SceneError is written to
# build-fuzz/findings/; fix the loader, then add the input to tests/fuzz/regressions, which ctest
# replays on every build.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
tools/setup.sh fuzz
flags="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DIMPACTSIM_FUZZ=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target scene_loader_fuzz
mkdir -p build-fuzz/corpus build-fuzz/findings
cp scenes/*.yaml tests/scenes/bad/*.yaml build-fuzz/corpus/
find tests/fuzz/regressions -type f ! -name README.md -exec cp {} build-fuzz/corpus/ \;
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
build-fuzz/scene_loader_fuzz build-fuzz/corpus -dict=tests/fuzz/scene.dict -max_total_time="$seconds" \
  -timeout=10 -rss_limit_mb=4096 -max_len=65536 -artifact_prefix=build-fuzz/findings/ -print_final_stats=1
