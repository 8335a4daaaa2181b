#!/usr/bin/env bash
# Session 17, call 3: the granularity policy's heavy-task limit swept (back-off ratio 2), against the bench of
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
pol t0r0 .gpu-exp/bench-new --inline-heavy-task-cycles 0 --inline-backoff-ratio 0
pol t0r2 .gpu-exp/bench-new --inline-heavy-task-cycles 0
pol t2000 .gpu-exp/bench-new
pol t500 .gpu-exp/bench-new --inline-heavy-task-cycles 500
pol t1000 .gpu-exp/bench-new --inline-heavy-task-cycles 1000
pol t4000 .gpu-exp/bench-new --inline-heavy-task-cycles 4000
pol t8000 .gpu-exp/bench-new --inline-heavy-task-cycles 8000
pol off .gpu-exp/bench-new --no-auto-granularity
for r in t0r0 t2000; do
  a=""; [ $r = t0r0 ] && a="--inline-heavy-task-cycles 0 --inline-backoff-ratio 0"
  timeout 120 .gpu-exp/bench-new --gpu-only --runs 3 $a --out $OUT/$r/sort.csv sort \
    --algo cilksort,mergesort-mixed,cilksort-mixed >$OUT/$r/sort.md 2>&1
  timeout 120 .gpu-exp/bench-new --gpu-only --runs 3 $a --out $OUT/$r/uts.csv uts >$OUT/$r/uts.md 2>&1
  date -u
done
cd $OUT && tar czf /tmp/call3.tgz . && rm -rf $OUT/* && mv /tmp/call3.tgz $OUT/
