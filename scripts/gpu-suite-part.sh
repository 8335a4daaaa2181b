#!/usr/bin/env bash
# One part of the GPU suite, for a GPU machine lent one call at a time (the `device` tool).
#
# On a fresh machine every binary JIT-compiles its PTX first, and the whole suite takes longer
# than one call allows, so it runs in parts on one machine: each call runs this script once.
# The first part runs the binaries that exercise the GPU runtime most first (FIRST below), up
# to GTAP_DEADLINE_S; each later part runs what the parts before left, from the state the
# last one kept on the machine, until nothing is left. The state names the bundle's commit: a
# part on another machine (no state), or with another bundle, starts the suite over.
#
# Usage (from the repository root, `.gpu-bin/bundle.tar.xz` carried):
#   bash scripts/gpu-suite-part.sh
# Logs: the state directory, and `$OUT/suite/` when OUT is set. Exit status: 0 when the suite
# is complete with every binary passed, 2 while binaries are left for a next part, 1 when a
# binary failed (in this part or an earlier one).
# Environment: GTAP_DEADLINE_S (default 540), GTAP_SUITE_STATE (default /tmp/gtap-suite);
# scripts/gpu-run.sh's variables but GTAP_FIRST and GTAP_ONLY, which this script sets.
set -uo pipefail
cd "$(dirname "$0")/.."
state=${GTAP_SUITE_STATE:-/tmp/gtap-suite}
FIRST="programs_gpu language_gpu random_gpu uts_gpu sequential borrow_gpu search_gpu storage_gpu"

if [ -f .gpu-bin/bundle.tar.xz ]; then
  tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin || { echo "gpu-suite-part: cannot unpack the bundle" >&2; exit 1; }
fi
commit=$(cat .gpu-bin/COMMIT 2>/dev/null) || { echo "gpu-suite-part: no .gpu-bin/COMMIT: run scripts/gpu-build.sh" >&2; exit 1; }

# The state of the parts so far: the bundle's commit, the parts run, the binaries left, the
# totals. Another commit (or none) starts over.
if [ "$(cat "$state/commit" 2>/dev/null)" != "$commit" ]; then
  rm -rf "$state"
  mkdir -p "$state"
  echo "$commit" >"$state/commit"
  echo 0 >"$state/parts"
  echo "0 0" >"$state/totals"
fi
part=$(($(cat "$state/parts") + 1))
read -r passed failed <"$state/totals"
if [ "$part" -gt 1 ] && [ ! -s "$state/left" ]; then
  echo "gpu-suite-part: the suite at $commit is complete: $passed passed, $failed failed ($((part - 1)) parts)"
  [ "$failed" -eq 0 ]
  exit
fi

log=$state/part$part
mkdir -p "$log"
echo "gpu-suite-part: part $part at $commit, $(date -u)"
if [ "$part" -eq 1 ]; then
  GTAP_FIRST=$FIRST GTAP_DEADLINE_S=${GTAP_DEADLINE_S:-540} OUT=$log bash scripts/gpu-run.sh
else
  GTAP_ONLY=$(cat "$state/left") GTAP_DEADLINE_S=${GTAP_DEADLINE_S:-540} OUT=$log \
    bash scripts/gpu-run.sh
fi

# gpu-run.sh's last line: "gpu-run: P passed, F failed, L not run"; its NOT RUN line names
# the binaries left.
read -r p f < <(sed -n 's/^gpu-run: \([0-9]*\) passed, \([0-9]*\) failed, .*/\1 \2/p' "$log/gpu-run.log" | tail -1)
if [ -z "${p:-}" ]; then
  echo "gpu-suite-part: part $part ended without gpu-run's summary (see $log/gpu-run.log)" >&2
  exit 1
fi
sed -n 's/^NOT RUN .*GTAP_ONLY="\(.*\)"$/\1/p' "$log/gpu-run.log" | tail -1 >"$state/left"
passed=$((passed + p)); failed=$((failed + f))
echo "$passed $failed" >"$state/totals"
echo "$part" >"$state/parts"
if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT/suite"
  cp "$log/gpu-run.log" "$OUT/suite/gpu-run-part$part.log"
fi
left=$(wc -w <"$state/left")
echo "gpu-suite-part: after part $part: $passed passed, $failed failed, $left left at $commit"
[ "$failed" -eq 0 ] || exit 1
[ "$left" -eq 0 ] || exit 2
