#!/usr/bin/env bash
# tools/cluster end to end: a batch cut into slices and merged, through GNU parallel (on this
# machine as its one host) or through a single-node Slurm started here (tools/cluster/local_slurm.sh),
# gives runs.csv byte for byte equal to one batch on one machine; bad arguments are refused before
# anything runs. Exits 77 (skipped) where GNU parallel or Slurm is missing or Slurm cannot start.
#   cluster_test.sh parallel|slurm IMPACTSIM SCENE WORK_DIR
set -euo pipefail
[[ $# -eq 4 ]] || { echo "usage: $0 parallel|slurm IMPACTSIM SCENE WORK_DIR" >&2; exit 2; }
mode=$1 impactsim=$2 scene=$3 work=$4
tools=$(cd "$(dirname "$0")/../../tools/cluster" && pwd)
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

runs=24
"$impactsim" batch "$scene" --runs $runs --seed 11 --threads 2 --quiet -o "$work/one_machine"

case "$mode" in
  parallel)
    command -v parallel > /dev/null || { echo "GNU parallel is not installed: skipped"; exit 77; }
    # Refused before anything runs: more slices than runs, an unknown option, a missing scene.
    if "$tools/parallel_batch.sh" --impactsim "$impactsim" --slices 30 "$scene" $runs "$work/bad" 2> "$work/err"; then
      fail "30 slices of 24 runs accepted"
    fi
    grep -q "at most RUNS" "$work/err" || fail "no reason for 30 slices: $(cat "$work/err")"
    if "$tools/parallel_batch.sh" --impactsim "$impactsim" --colour red "$scene" $runs "$work/bad" 2> /dev/null; then
      fail "an unknown option accepted"
    fi
    [[ ! -e "$work/bad" ]] || fail "a refused command left its OUT behind"
    "$tools/parallel_batch.sh" --impactsim "$impactsim" --slices 5 --hosts 2/: "$scene" $runs "$work/sliced" -- --seed 11 --quiet
    ;;
  slurm)
    "$tools/local_slurm.sh" start "$work/slurm" > "$work/slurm_env" || exit $?  # 77: Slurm cannot start here
    trap '"$tools/local_slurm.sh" stop "$work/slurm"' EXIT
    source "$work/slurm_env"
    "$tools/slurm_batch.sh" --impactsim "$impactsim" --slices 4 --wait --sbatch "--time=5" "$scene" $runs "$work/sliced" \
      -- --seed 11 --quiet
    ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac

[[ $(ls "$work/sliced/slices" | wc -l) -ge 4 ]] || fail "expected at least 4 slice directories"
cmp "$work/one_machine/runs.csv" "$work/sliced/merged/runs.csv" || fail "merged runs.csv differs from one machine's"
[[ $(wc -l < "$work/sliced/merged/runs.csv") -eq $((runs + 1)) ]] || fail "merged runs.csv does not hold $runs runs"
# The same OUT again is refused: it holds slices.
if "$tools/${mode}_batch.sh" --impactsim "$impactsim" "$scene" $runs "$work/sliced" 2> /dev/null; then
  fail "a second batch into the same OUT accepted"
fi
echo "cluster $mode: $runs runs in slices, merged runs.csv identical to one machine's"
