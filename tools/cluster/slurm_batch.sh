#!/usr/bin/env bash
# A batch as a Slurm job array: one array task per slice (run_slice.sh: `impactsim batch --first
# --count`), then a merge job that starts when every slice has succeeded and writes OUT/merged
# (runs.csv and summary.json, identical to one batch of RUNS on one machine). Slices write to
# OUT/slices/<i>, logs go to OUT/logs; OUT must be on a filesystem the nodes share.
#
#   tools/cluster/slurm_batch.sh [--slices K] [--impactsim PATH] [--sbatch "ARGS"] [--wait]
#                                SCENE RUNS OUT [-- BATCH OPTIONS...]
#
# --sbatch passes options to both sbatch calls (partition, account, time: "-p short -t 10"); BATCH
# OPTIONS go to every slice's `impactsim batch` (--seed, --law, --threads, --set...). A requeued
# slice finishes what it began (--resume). --wait returns when the merge job ends, with its status.
set -euo pipefail
usage() { sed -n '8,9p' "$0" | sed 's/^# *//' >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
sbatch_args=""
wait=()
extra_option() {
  case "$1" in
    --sbatch) sbatch_args=$2 ;;
    *) return 1 ;;
  esac
}
extra_flag() { [[ "$1" == --wait ]] && wait=(--wait); }
parse_arguments "$@"
command -v sbatch > /dev/null || { echo "slurm_batch: sbatch not found: no Slurm here" >&2; exit 2; }

# shellcheck disable=SC2086  # sbatch_args is a list of options
slice_job=$(sbatch --parsable --job-name=impactsim-slices --array=0-$((slices - 1)) $sbatch_args \
  --output="$out/logs/slice_%a.log" \
  --wrap="$(printf '%q ' "$here/run_slice.sh" "$impactsim" "$scene" "$runs" "$slices" array "$out" "${batch_options[@]}")")
echo "slurm_batch: $slices slices of $runs runs: job array $slice_job (logs in $out/logs)"
# shellcheck disable=SC2086
merge_job=$(sbatch --parsable --job-name=impactsim-merge --dependency="afterok:${slice_job%%;*}" $sbatch_args \
  --output="$out/logs/merge.log" "${wait[@]}" \
  --wrap="$(printf '%q ' "$impactsim" merge -o "$out/merged")$(printf '%q' "$out/slices")/*")
echo "slurm_batch: merge: job $merge_job -> $out/merged"
