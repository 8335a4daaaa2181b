#!/usr/bin/env bash
# Session 17, call 10: bisecting mergesort-mixed's slowdown: 5633c5c's bench, variant C (the
# panic handler's root walk out of line and cold), variant A (C, and mixed programs' lanes
# note no running task), alternated twice.
set -u
for b in 5633 c a; do xz -dkf .gpu-exp/bench-$b.xz; chmod +x .gpu-exp/bench-$b; done
. scripts/jit-cache.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
ab() { # DIR BIN
  local o=$OUT/ab-$1; local B=$2; mkdir -p $o
  timeout 90 $B --gpu-only --runs 5 --out $o/sort.csv sort --algo mergesort-mixed >$o/sort.md 2>&1
  timeout 90 $B --gpu-only --runs 3 --grid 1000 --block 64 --out $o/gran.csv granularity --trees full \
    --full-depth 22 --mem-ops 256 --compute-iters 256 >$o/gran.md 2>&1
  timeout 60 $B --gpu-only --runs 5 --out $o/fib.csv fib --n 40 >$o/fib.md 2>&1
}
for r in 1 2; do ab base$r .gpu-exp/bench-5633; ab c$r .gpu-exp/bench-c; ab a$r .gpu-exp/bench-a; done
cd $OUT && tar czf /tmp/call10.tgz . && rm -rf $OUT/* && mv /tmp/call10.tgz $OUT/
