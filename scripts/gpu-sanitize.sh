#!/usr/bin/env bash
# Runs every example program at a small size (the `smoke` example) under compute-sanitizer's
# four tools, on a GPU machine, from binaries that scripts/gpu-build.sh put in .gpu-bin/.
# Logs go to $OUT (or /tmp) as sanitizer-<tool>.log; the summary goes to stdout.
# Usage (from the repository root): bash scripts/gpu-sanitize.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp}
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
"$cs" --version | tail -1
status=0
for tool in memcheck racecheck synccheck initcheck; do
  log="$out/sanitizer-$tool.log"
  # A small grid keeps the run short under the tools; --error-exitcode makes a finding fail.
  GTAP_GRID=${GTAP_GRID:-8} GTAP_BLOCK=${GTAP_BLOCK:-64} \
    "$cs" --tool "$tool" --error-exitcode 9 --print-limit 20 .gpu-bin/examples/smoke >"$log" 2>&1
  rc=$?
  echo "$tool: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|smoke:' "$log" | tr '\n' ' ')"
  [ $rc -eq 0 ] || status=1
done
exit $status
