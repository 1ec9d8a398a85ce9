# Shared by slurm_batch.sh and parallel_batch.sh: their common options and checks. Sourced.
#   [--slices K] [--impactsim PATH] SCENE RUNS OUT [-- BATCH OPTIONS...]
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
slices=4
impactsim="$here/../../build/impactsim"
positional=()
batch_options=()
# The sourcing script may take more options: extra_option NAME VALUE for those with a value,
# extra_flag NAME for those without; each returns 1 for a name it does not take.
extra_option() { return 1; }
extra_flag() { return 1; }

parse_arguments() {
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --slices) slices=$2; shift 2 ;;
      --impactsim) impactsim=$2; shift 2 ;;
      --) shift; batch_options=("$@"); break ;;
      --*)
        if extra_flag "$1"; then shift
        elif extra_option "$1" "${2:-}"; then shift 2
        else echo "$(basename "$0"): unknown option $1" >&2; usage
        fi ;;
      *) positional+=("$1"); shift ;;
    esac
  done
  [[ ${#positional[@]} -eq 3 ]] || usage
  scene=$(realpath -m "${positional[0]}")
  runs=${positional[1]}
  out=$(realpath -m "${positional[2]}")  # created only once every check has passed
  impactsim=$(realpath -m "$impactsim")
  [[ -x "$impactsim" ]] || { echo "$(basename "$0"): no impactsim executable at $impactsim (--impactsim PATH)" >&2; exit 2; }
  [[ -f "$scene" ]] || { echo "$(basename "$0"): no scene file ${positional[0]}" >&2; exit 2; }
  [[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "$(basename "$0"): RUNS must be a positive integer, not '$runs'" >&2; exit 2; }
  [[ "$slices" =~ ^[1-9][0-9]*$ && $slices -le $runs ]] ||
    { echo "$(basename "$0"): --slices must be a positive integer at most RUNS, not '$slices'" >&2; exit 2; }
  # Catch a bad scene or option before anything is queued.
  "$impactsim" check "$scene" --quiet > /dev/null || exit 2
  if [[ -e "$out/merged" || -e "$out/slices" ]]; then
    echo "$(basename "$0"): $out already holds slices or a merged batch; choose another OUT" >&2
    exit 2
  fi
  mkdir -p "$out/logs"
}
