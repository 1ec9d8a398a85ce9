#!/bin/bash
# Runs every shipped scene under every impact law (event-driven) and every fixed-step integrator and
# prints one Markdown row per run: scene, options, exit code, wall seconds, first error line.
# Usage: tools/run_matrix.sh [BINARY [OUTDIR [JOBS [TIMEOUT_S]]]]
#   (defaults: build/impactsim, a temporary folder, 2 parallel runs, 600 s per run; exit 124 = timed out).
# MATRIX_SCENES=GLOB picks scenes by name (e.g. MATRIX_SCENES=compass_gait_3d).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$root/build/impactsim}")
out=${2:-$(mktemp -d)}
jobs=${3:-2}
limit=${4:-600}
mkdir -p "$out"
list=()
for scene in "$root"/scenes/${MATRIX_SCENES:-*}.yaml; do
  for law in anitescu-potra routh sequential propagative; do list+=("$scene --law $law"); done
  for integrator in time-stepping drumwright; do list+=("$scene --integrator $integrator"); done
done
echo "| scene | options | exit | s | first error |"
echo "| --- | --- | --- | --- | --- |"
printf '%s\n' "${list[@]}" | xargs -P "$jobs" -I{} bash -c '
  out=$0 bin=$1 limit=$2
  set -- {}
  scene=$1; shift
  name=$(basename "$scene" .yaml); dir="$out/$name$(echo "$*" | tr " -" "__")"
  start=$(date +%s.%N)
  set +e; timeout "$limit" "$bin" run "$scene" "$@" -q -o "$dir" > "$dir.log" 2>&1; rc=$?; set -e
  end=$(date +%s.%N)
  error=$(grep -m1 "\[error\]" "$dir.log" | cut -c1-160 | tr "|" "/" || true)
  printf "| %s | %s | %s | %s | %s |\n" "$name" "$*" "$rc" "$(awk -v a="$start" -v b="$end" "BEGIN{printf \"%.1f\", b - a}")" "$error"
' "$out" "$bin" "$limit"
