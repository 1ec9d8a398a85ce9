#!/usr/bin/env bash
# A batch over SSH hosts with GNU parallel: one `impactsim batch --first --count` slice per job
# (run_slice.sh), spread over the hosts, then `impactsim merge` here into OUT/merged (runs.csv and
# summary.json, identical to one batch of RUNS on one machine). The hosts must see the same paths
# (a shared filesystem holding the scene, impactsim and OUT) and be reachable by ssh without a
# password; `:` is this machine.
#
#   tools/cluster/parallel_batch.sh [--slices K] [--impactsim PATH] [--hosts H1,H2,... | --sshloginfile F]
#                                   [--jobs-per-host J] SCENE RUNS OUT [-- BATCH OPTIONS...]
#
# Hosts are GNU parallel's sshlogins ("4/user@node1" runs 4 jobs there); --jobs-per-host (default 1)
# applies to hosts without a count. BATCH OPTIONS go to every slice (--seed, --law, --threads...).
# A slice that fails stops the others (--halt now,fail=1) and OUT/logs/slice_<i>.err says why; to
# finish, run that slice again with run_slice.sh (it resumes what it began) and `impactsim merge`.
set -euo pipefail
usage() { sed -n '8,9p' "$0" | sed 's/^# *//' >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
logins=(--sshlogin :)
jobs=1
extra_option() {
  case "$1" in
    --hosts) logins=(--sshlogin "$2") ;;
    --sshloginfile) logins=(--sshloginfile "$2") ;;
    --jobs-per-host) jobs=$2 ;;
    *) return 1 ;;
  esac
}
parse_arguments "$@"
command -v parallel > /dev/null || { echo "parallel_batch: GNU parallel not found (apt-get install parallel)" >&2; exit 2; }

echo "parallel_batch: $slices slices of $runs runs (logs in $out/logs)"
parallel --will-cite --halt now,fail=1 --jobs "$jobs" "${logins[@]}" \
  --results "$out/logs/slice_{}" \
  "$(printf '%q ' "$here/run_slice.sh" "$impactsim" "$scene" "$runs" "$slices")"'{}'" $(printf '%q ' "$out" "${batch_options[@]}")" \
  ::: $(seq 0 $((slices - 1)))
"$impactsim" merge -o "$out/merged" "$out"/slices/*
echo "parallel_batch: merged -> $out/merged"
