#!/usr/bin/env bash
# Session 17, call 2: the granularity policy's back-off ratio swept, against the bench of
# e0eb8ee (base), same machine, same call.
set -u
for b in base new; do xz -dkf .gpu-exp/bench-$b.xz; chmod +x .gpu-exp/bench-$b; done
. scripts/jit-cache.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
pol() { # DIR BIN ARGS...
  local o=$OUT/$1; shift; local B=$1; shift; mkdir -p $o
  timeout 90 $B --gpu-only --runs 5 "$@" --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>&1
  timeout 60 $B --gpu-only --runs 5 "$@" --out $o/epaq.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 >$o/epaq.md 2>&1
  timeout 60 $B --gpu-only --runs 5 "$@" --out $o/nq.csv nqueens --n 12,14,16 --cutoff 8 >$o/nq.md 2>&1
  timeout 120 $B --gpu-only --runs 3 "$@" --grid 1000 --block 64 --out $o/gran.csv granularity --trees full,pruned \
    --full-depth 22 --pruned-depth 32 --mem-ops 0,256 --compute-iters 256 >$o/gran.md 2>&1
  date -u
}
date -u
pol base .gpu-exp/bench-base
pol r0 .gpu-exp/bench-new --inline-backoff-ratio 0
pol r4 .gpu-exp/bench-new
pol r1 .gpu-exp/bench-new --inline-backoff-ratio 1
pol r2 .gpu-exp/bench-new --inline-backoff-ratio 2
pol r8 .gpu-exp/bench-new --inline-backoff-ratio 8
pol r16 .gpu-exp/bench-new --inline-backoff-ratio 16
pol off .gpu-exp/bench-new --no-auto-granularity
for r in 0 4; do
  timeout 120 .gpu-exp/bench-new --gpu-only --runs 3 --inline-backoff-ratio $r --out $OUT/r$r/sort.csv sort \
    --algo cilksort,mergesort-mixed,cilksort-mixed >$OUT/r$r/sort.md 2>&1
  timeout 120 .gpu-exp/bench-new --gpu-only --runs 3 --inline-backoff-ratio $r --out $OUT/r$r/uts.csv uts >$OUT/r$r/uts.md 2>&1
  date -u
done
cd $OUT && tar czf /tmp/call2.tgz . && rm -rf $OUT/* && mv /tmp/call2.tgz $OUT/
