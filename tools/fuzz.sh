#!/usr/bin/env bash
# Fuzzes one of impactsim's input readers with libFuzzer (clang, from Debian) under
# AddressSanitizer and UndefinedBehaviorSanitizer: tools/fuzz.sh [TARGET] [SECONDS], TARGET one of
# scene_loader (the default: any scene text), urdf (any robot.urdf) or set_override (any --set on a
# shipped scene, then its first instants), SECONDS 600 by default. Each corpus starts from the
# target's seeds and its regressions (tests/fuzz/), with a dictionary of every scene key. An input
# that crashes, hangs or throws anything but the expected errors is written to
# build-fuzz/findings/TARGET/; fix it, then add the input to the target's regressions directory,
# which ctest replays on every build.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-scene_loader}"
seconds="${2:-600}"
case "$target" in
  scene_loader) seeds=(scenes/*.yaml tests/scenes/bad/*.yaml); regressions=tests/fuzz/regressions ;;
  urdf) seeds=(scenes/robots/*.urdf); regressions=tests/fuzz/urdf_regressions ;;
  set_override) seeds=(); regressions=tests/fuzz/set_regressions ;;
  *) echo "fuzz: unknown target '$target' (scene_loader, urdf or set_override)" >&2; exit 2 ;;
esac
tools/setup.sh fuzz
flags="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DIMPACTSIM_FUZZ=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target "${target}_fuzz"
corpus="build-fuzz/corpus/$target" findings="build-fuzz/findings/$target"
mkdir -p "$corpus" "$findings"
if ((${#seeds[@]})); then cp "${seeds[@]}" "$corpus/"; fi
find "$regressions" -type f ! -name README.md -exec cp {} "$corpus/" \;
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# set_override runs each scene's first 0.01 s, which takes a big scene a few seconds under the
# sanitizers: a hang there is an input past 60 s.
timeout=10
[[ "$target" == set_override ]] && timeout=60
"build-fuzz/${target}_fuzz" "$corpus" -dict=tests/fuzz/scene.dict -max_total_time="$seconds" \
  -timeout="$timeout" -rss_limit_mb=4096 -max_len=65536 -artifact_prefix="$findings/" -print_final_stats=1
