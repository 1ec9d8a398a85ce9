#!/usr/bin/env bash
# Builds impactsim's libraries and executable with AddressSanitizer and UndefinedBehaviorSanitizer
# into build-sanitize/ (a Debug build: Eigen's assertions hold too), and its tests beside them,
# whose own code calls into them and is not instrumented (CMakeLists.txt, IMPACTSIM_SANITIZE), and
# runs the tests of C++ code there. The libraries are compiled eight files to a unit
# (IMPACTSIM_UNITY_LIBS): their instrumented code had been three quarters of this build's compile
# time. The tests that check the sources' layout, draw plots, views, drive clusters or compare
# with MuJoCo through Python run C++ paths the app tests run, and are left to the Release pass,
# as are five of the longest runs (below). Every UBSan report is fatal (the test that triggers it
# fails), as is every ASan error and leak (tools/lsan.supp names the one library leak accepted).
# The parallel map's tests also run under ThreadSanitizer. Extra arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1 -fno-omit-frame-pointer" \
  -DIMPACTSIM_SANITIZE=address,undefined -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON -DIMPACTSIM_PYTHON=OFF \
  -DIMPACTSIM_UNITY_LIBS=ON >/dev/null
cmake --build build-sanitize -j "$(nproc)"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export LSAN_OPTIONS="suppressions=$PWD/tools/lsan.supp"
# Left to the Release pass alone: the two frictional-pile runs to rest, and the 50-body box pile's
# 0.3 s of growing steps (4 s in Release), whose event loop, friction and stepping the shorter pile,
# stepping and chatter tests cover here, and which at -O1 under the sanitizers would take most of
# this pass's time; and two tests of the command that run for minutes under the sanitizers and
# seconds in Release: a batch of 6,000 runs interrupted, resumed and run again whole, and a run of
# each law from an angle of no precision. The batch's lock, signal and resume and the stops with a reason
# are run here by the shorter Faults, Batch and Run tests.
long='^(Hybrid\.(AFrictionalSpherePileSettles|InstantsTheEventLoopCannotPassAreSteppedThrough|'
long+='StepsGrowWhereTriesAtConsistentModesKeepFailing)|'
long+='Faults\.OneWriterPerDirectoryAndASignalLeavesAResumableBatch|Run\.AnAngleOfNoPrecisionStopsWithTheReason)$'
ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)" -E "^(layout|plots|cluster|view|peers)\.|$long" "$@"

# The one concurrent component, its tests under ThreadSanitizer: a data race there fails the run.
g++ -std=c++17 -O1 -g -fsanitize=thread -I. tests/app/parallel_map_test.cpp -lgtest -lgtest_main -pthread \
  -o build-sanitize/parallel_map_tsan
TSAN_OPTIONS="halt_on_error=1" build-sanitize/parallel_map_tsan
