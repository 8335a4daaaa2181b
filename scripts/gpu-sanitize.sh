#!/usr/bin/env bash
# Runs every example program family at a small size under compute-sanitizer's four tools, on
# a GPU machine, from binaries that scripts/gpu-build.sh put in .gpu-bin/: the `smoke` example
# with --all-configs (thread programs on thread-level workers with one and several EPAQ
# queues, every queue order, top-up, inline resumes, unpublished batches and both ablation
# schedulers; BFS, SpMV and block trees on block-level workers), and the `fib` example.
# Logs go to $OUT (or /tmp) as sanitizer-<tool>-<program>.log; the summary goes to stdout.
# Usage (from the repository root): bash scripts/gpu-sanitize.sh [TOOL...]
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jit-cache.sh
out=${OUT:-/tmp}
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
"$cs" --version | tail -1
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck synccheck initcheck)
status=0
for tool in "${tools[@]}"; do
  for prog in "smoke --all-configs" "fib 18"; do
    name=${prog%% *}
    log="$out/sanitizer-$tool-$name.log"
    start=$(date +%s)
    # --error-exitcode makes a finding fail; the launch is small (smoke's default 8 x 64).
    # shellcheck disable=SC2086
    "$cs" --tool "$tool" --error-exitcode 9 --print-limit 20 .gpu-bin/examples/$prog >"$log" 2>&1
    rc=$?
    summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^smoke:|^fib\([0-9]+\) =' "$log" | tr '\n' ' ')
    echo "$tool $name: exit $rc in $(( $(date +%s) - start )) s; $summary"
    [ $rc -eq 0 ] || status=1
  done
done
exit $status
