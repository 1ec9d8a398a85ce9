#!/usr/bin/env bash
# Every commit since the commit-msg hook came (tools/git-hooks/commit-msg) passes it: a subject of
# at most 72 characters and a blank line before the body. Skipped (77) outside a git checkout or
# in one whose history is cut off before the hook's commit (a shallow clone).
set -uo pipefail
cd "$1" || exit 1
git rev-parse --git-dir >/dev/null 2>&1 || { echo "not a git checkout"; exit 77; }
first=$(git log --format=%H --diff-filter=A -- tools/git-hooks/commit-msg | tail -n 1)
[[ -n "$first" ]] || { echo "the hook's commit is not in this history"; exit 77; }
parents=$(git rev-parse "$first^@")
message=$(mktemp)
trap 'rm -f "$message"' EXIT
failed=0 checked=0
for commit in $(git rev-list HEAD ${parents:+--not $parents}); do
  git log -1 --format=%B "$commit" > "$message"
  checked=$((checked + 1))
  if ! problem=$(tools/git-hooks/commit-msg "$message" 2>&1); then
    printf 'commit %s:\n%s\n' "$(git log -1 --format=%h "$commit")" "$problem"
    failed=1
  fi
done
echo "$checked commits checked"
exit $failed
