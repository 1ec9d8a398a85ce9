#!/usr/bin/env bash
# One slice of a batch of RUNS runs cut into SLICES: runs floor(i RUNS / SLICES) up to
# floor((i + 1) RUNS / SLICES) - 1, written to OUT/slices/<i> (i zero-padded). A slice that was begun
# (a requeued or preempted job) is finished with --resume. Run i's result depends on the scene, the
# seed and i alone, so `impactsim merge` of the slices equals one batch of RUNS byte for byte.
#   run_slice.sh IMPACTSIM SCENE RUNS SLICES INDEX OUT [BATCH OPTIONS...]
# INDEX `array` takes the slice from Slurm's SLURM_ARRAY_TASK_ID.
set -euo pipefail
[[ $# -ge 6 ]] || { echo "usage: $0 IMPACTSIM SCENE RUNS SLICES INDEX OUT [BATCH OPTIONS...]" >&2; exit 2; }
impactsim=$1 scene=$2 runs=$3 slices=$4 index=$5 out=$6
shift 6
[[ "$index" == array ]] && index=${SLURM_ARRAY_TASK_ID:?run_slice: INDEX array outside a Slurm job array}
first=$((index * runs / slices))
count=$(((index + 1) * runs / slices - first))
dir=$(printf '%s/slices/%04d' "$out" "$index")
resume=()
[[ -f "$dir/runs.csv" ]] && resume=(--resume)
exec "$impactsim" batch "$scene" --runs "$runs" --first "$first" --count "$count" -o "$dir" "${resume[@]}" "$@"
