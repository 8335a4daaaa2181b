#!/usr/bin/env bash
# Session 17, call 9: with the block runtime's shared part back at 1024 bytes (WarpStats 8
# bytes smaller), the working tree's bench against 5633c5c's, alternated twice.
set -u
for b in 5633 new; do xz -dkf .gpu-exp/bench-$b.xz; chmod +x .gpu-exp/bench-$b; done
. scripts/jit-cache.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
ab() { # DIR BIN
  local o=$OUT/ab-$1; local B=$2; mkdir -p $o
  timeout 60 $B --gpu-only --runs 5 --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>&1
  timeout 90 $B --gpu-only --runs 3 --grid 1000 --block 64 --out $o/gran.csv granularity --trees full,pruned \
    --full-depth 22 --pruned-depth 32 --mem-ops 256 --compute-iters 256 >$o/gran.md 2>&1
  timeout 90 $B --gpu-only --runs 5 --out $o/sort.csv sort --algo mergesort-mixed,cilksort-mixed >$o/sort.md 2>&1
  date -u
}
ab base1 .gpu-exp/bench-5633
ab new1 .gpu-exp/bench-new
ab base2 .gpu-exp/bench-5633
ab new2 .gpu-exp/bench-new
cd $OUT && tar czf /tmp/call9.tgz . && rm -rf $OUT/* && mv /tmp/call9.tgz $OUT/
