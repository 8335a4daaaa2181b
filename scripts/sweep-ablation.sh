#!/usr/bin/env bash
# Worker-count sweep of the three schedulers (GTaP Fig. 3 and 4): work stealing with batched
# warp-cooperative operations, per-warp deques operated one task at a time, and one global
# queue. Runs the bench from .gpu-bin (scripts/gpu-build.sh) on a GPU machine, one process
# per program and point (a failure costs one point; it is written as a `# FAILED` line).
# Usage: bash scripts/sweep-ablation.sh OUT.csv [RUNS] [-- MORE BENCH FLAGS]
# Sizes: FIB_N (default 30), NQ_N (12), CILKSORT_N (1e6). BENCH: the bench binary.
# OUT.csv: scheduler,block,grid,warps, then the bench's columns (benchmark,size,...).
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jit-cache.sh
out=${1:?usage: sweep-ablation.sh OUT.csv [RUNS] [-- MORE BENCH FLAGS]}
runs=${2:-3}
shift $(($# < 2 ? $# : 2))
[ "${1:-}" = -- ] && shift
bench=${BENCH:-.gpu-bin/examples/bench}
programs=("fib --n ${FIB_N:-30}" "nqueens --n ${NQ_N:-12}" "sort --algo cilksort --n ${CILKSORT_N:-1e6}")
: >"$out"
header=
tmp=$(mktemp)
for block in 32 256; do
  per=$((block / 32))
  for warps in 32 66 132 264 528 1056 2112; do
    grid=$(( (warps + per - 1) / per ))
    for sched in work-stealing one-at-a-time global-queue; do
      for program in "${programs[@]}"; do
        # shellcheck disable=SC2086 # $program is a subcommand with its flags
        if timeout 120 "$bench" --gpu-only --runs "$runs" --block "$block" --grid "$grid" \
            --scheduler "$sched" --out "$tmp" "$@" $program >/dev/null 2>&1; then
          if [ -z "$header" ]; then
            header="scheduler,block,grid,warps,$(head -n 1 "$tmp")"
            echo "$header" >>"$out"
          fi
          tail -n +2 "$tmp" | sed "s/^/$sched,$block,$grid,$((grid * per)),/" >>"$out"
        else
          echo "# FAILED: $sched block $block grid $grid: $program" >>"$out"
        fi
      done
    done
  done
done
rm -f "$tmp"
echo "sweep written to $out"
