#!/usr/bin/env bash
# Worker-count sweep of the three schedulers (GTaP Fig. 3 and 4): work stealing with batched
# warp-cooperative operations, per-warp deques operated one task at a time, and one global
# queue. Runs the bench harness from .gpu-bin (scripts/gpu-build.sh) on a GPU machine.
# Usage: bash scripts/sweep-ablation.sh OUT.csv [RUNS]
# Sizes: GTAP_FIB_N (default 30), GTAP_NQ_N (12), GTAP_CILKSORT_N (1000000).
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jit-cache.sh
out=${1:?usage: sweep-ablation.sh OUT.csv [RUNS]}
runs=${2:-3}
bench=.gpu-bin/examples/bench
export GTAP_FIB_N=${GTAP_FIB_N:-30} GTAP_NQ_N=${GTAP_NQ_N:-12} GTAP_CILKSORT_N=${GTAP_CILKSORT_N:-1000000}
echo "scheduler,block,grid,warps,benchmark,backend,median_ms,min_ms,max_ms,runs,tasks" >"$out"
tmp=$(mktemp)
for block in 32 256; do
  per=$((block / 32))
  for warps in 32 66 132 264 528 1056 2112; do
    grid=$(( (warps + per - 1) / per ))
    for sched in work-stealing one-at-a-time global-queue; do
      if [ "$sched" = work-stealing ]; then unset GTAP_SCHEDULER; else export GTAP_SCHEDULER=$sched; fi
      if GTAP_BLOCK=$block GTAP_GRID=$grid timeout 120 "$bench" --gpu-only --runs "$runs" --out "$tmp" fib nqueens cilksort >/dev/null 2>&1; then
        tail -n +2 "$tmp" | sed "s/^/$sched,$block,$grid,$((grid * per)),/" >>"$out"
      else
        echo "$sched,$block,$grid,$((grid * per)),FAILED,,,,,," >>"$out"
      fi
    done
  done
done
unset GTAP_SCHEDULER
rm -f "$tmp"
echo "sweep written to $out"
