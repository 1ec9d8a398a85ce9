#!/usr/bin/env bash
# Regenerates the figures and tables the docs show, and the analogues of Halm and Posa's
# Figs. 9-14, into one folder, with the command behind each:
#
#   tools/reproduce.sh [--quick] [--bench] [--siconos] [--build DIR] OUT
#
#   OUT/images/      the pictures of the README and docs/guide.md (docs/images/ holds the copies shown)
#   OUT/paper/       post-impact sets of the paper's scenes under the Routh law: Fig. 9 rocking block,
#                    10 compass gait, 11 box against a wall, 13 RAMone footfall, 14 disk stack (Fig. 12,
#                    compliant contact, has no analogue: impactsim's contacts are rigid)
#   OUT/tables/      throughput.md: batch runs/s on 1 and 2 threads; with --bench, benchmarks.md
#                    (what tools/benchmarks.py writes into docs/benchmarks.md); with --siconos, jammed_lcps.md (the jammed-LCP comparison; it
#                    installs Debian's python3-siconos, so it needs root)
#   OUT/runs/        the output folders they came from, each with its metadata.json
#   OUT/MANIFEST.md  every file above and the command that produced it
#
# --quick runs a few samples and runs of each (to test the script; the pictures are thinner than the
# docs'). --build DIR: the build folder holding impactsim (default: build). Needs Debian's
# python3-matplotlib for the pictures, as `--plot` does. Exits non-zero at the first command that
# fails, naming it; what was made before stays.
set -euo pipefail

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1; }

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
quick=0 bench=0 siconos=0 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --bench) bench=1 ;;
    --siconos) siconos=1 ;;
    --build) [ $# -ge 2 ] || usage; build=$(cd "$2" && pwd); shift ;;
    -h|--help) usage ;;
    -*) echo "reproduce.sh: unknown option $1" >&2; usage ;;
    *) [ -z "$out" ] || usage; out="$1" ;;
  esac
  shift
done
[ -n "$out" ] || usage
impactsim="$build/impactsim"
[ -x "$impactsim" ] || { echo "reproduce.sh: $impactsim not found: build first (tools/build.sh) or give --build DIR" >&2; exit 1; }

samples=16384 runs=10000 paper_samples=16384 jammed=1000
if [ "$quick" = 1 ]; then samples=512 runs=200 paper_samples=256 jammed=20; fi

mkdir -p "$out"/{images,paper,tables,runs}
out=$(cd "$out" && pwd)
manifest="$out/MANIFEST.md"
{
  echo "# What tools/reproduce.sh made"
  echo
  echo "impactsim: $("$impactsim" --version)"
  [ "$quick" = 1 ] && echo "Quick mode: fewer samples and runs than the docs' figures."
  echo
  echo "| file | command |"
  echo "| --- | --- |"
} > "$manifest"

# step DESCRIPTION COMMAND...: runs the command from the project root, its output to OUT/commands.log;
# on failure prints the command and the log's tail.
step() {
  local what="$1"; shift
  echo "reproduce: $what" >&2
  echo "\$ $*" >> "$out/commands.log"
  if ! (cd "$root" && "$@") >> "$out/commands.log" 2>&1; then
    echo "reproduce.sh: failed: $*" >&2
    tail -n 20 "$out/commands.log" >&2
    exit 1
  fi
}

# record FILE COMMAND: a manifest row; FILE must exist.
record() {
  [ -s "$1" ] || { echo "reproduce.sh: $1 was not made" >&2; exit 1; }
  echo "| ${1#"$out"/} | \`$2\` |" >> "$manifest"
}

scene() { echo "scenes/$1.yaml"; }

# The pictures of the README and the guide: the rocking block under the scene's Routh law.
cmd_run="impactsim run $(scene rocking_block) --seed 4 --plot"
step "rocking block run" "$impactsim" run "$(scene rocking_block)" --seed 4 --plot -q -o "$out/runs/rocking_block_run"
for f in trajectory.png energy.png animation.gif; do
  cp "$out/runs/rocking_block_run/$f" "$out/images/rocking_block_$f"
  record "$out/images/rocking_block_$f" "$cmd_run"
done
cmd_impact="impactsim impact $(scene rocking_block) --samples $samples --plot"
step "rocking block post-impact set" "$impactsim" impact "$(scene rocking_block)" --samples "$samples" --plot -q \
  -o "$out/runs/rocking_block_impact"
cp "$out/runs/rocking_block_impact/post_impact.png" "$out/images/rocking_block_post_impact.png"
record "$out/images/rocking_block_post_impact.png" "$cmd_impact"
cmd_batch="impactsim batch $(scene rocking_block) --runs $runs --threads 2 --plot"
step "rocking block batch" "$impactsim" batch "$(scene rocking_block)" --runs "$runs" --threads 2 --plot -q \
  -o "$out/runs/rocking_block_batch" --force
cp "$out/runs/rocking_block_batch/histograms.png" "$out/images/rocking_block_histograms.png"
record "$out/images/rocking_block_histograms.png" "$cmd_batch"

# Halm and Posa's figures: each scene's post-impact set sampled under the Routh law.
for fig in "09 rocking_block" "10 compass_gait" "11 box_wall" "13 ramone" "14 disk_stack"; do
  set -- $fig
  cmd="impactsim impact $(scene "$2") --law routh --samples $paper_samples --threads 2 --plot"
  step "Fig. $1: $2" "$impactsim" impact "$(scene "$2")" --law routh --samples "$paper_samples" --threads 2 --plot -q \
    -o "$out/runs/fig$1_$2"
  cp "$out/runs/fig$1_$2/post_impact.png" "$out/paper/fig$1_$2_post_impact.png"
  record "$out/paper/fig$1_$2_post_impact.png" "$cmd"
done

# Batch throughput, runs.csv and summary.json written: the figure batch prints when it ends.
{
  echo "| command | runs/s |"
  echo "| --- | --- |"
} > "$out/tables/throughput.md"
for threads in 1 2; do
  log="$out/runs/throughput_$threads.log"
  cmd="impactsim batch $(scene rocking_block) --runs $runs --threads $threads"
  echo "\$ $cmd" >> "$out/commands.log"
  "$impactsim" batch "$root/$(scene rocking_block)" --runs "$runs" --threads "$threads" --force \
    -o "$out/runs/throughput_$threads" 2> "$log" || { echo "reproduce.sh: failed: $cmd" >&2; cat "$log" >&2; exit 1; }
  rate=$(grep -o '[0-9.]* runs/s$' "$log" | tail -n 1 | cut -d' ' -f1)
  [ -n "$rate" ] || { echo "reproduce.sh: no runs/s in $log" >&2; exit 1; }
  echo "| \`$cmd\` | $rate |" >> "$out/tables/throughput.md"
done
record "$out/tables/throughput.md" "impactsim batch $(scene rocking_block) --runs $runs --threads 1, then 2"

if [ "$bench" = 1 ]; then
  cmd="/usr/bin/python3 tools/benchmarks.py --build $build --out benchmarks.md"
  step "benchmarks" /usr/bin/python3 "$root/tools/benchmarks.py" --build "$build" --out "$out/tables/benchmarks.md"
  record "$out/tables/benchmarks.md" "$cmd"
fi

if [ "$siconos" = 1 ]; then
  step "jammed LCPs" "$build/jammed_lcp_dump" "$out/runs/jammed" "$jammed"
  echo "\$ /usr/bin/python3 tools/compare_lcp_siconos.py $out/runs/jammed" >> "$out/commands.log"
  /usr/bin/python3 "$root/tools/compare_lcp_siconos.py" "$out/runs/jammed" > "$out/tables/jammed_lcps.md"
  record "$out/tables/jammed_lcps.md" "jammed_lcp_dump DIR $jammed; tools/compare_lcp_siconos.py DIR"
fi

echo "reproduce: wrote $out (MANIFEST.md lists each file and its command)" >&2
