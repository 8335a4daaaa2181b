#!/usr/bin/env bash
# Session 18, call 3: task records filled in whole words (fill.ptx) against HEAD's PTX, same host bench, same call.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dkf .gpu-exp/fill.ptx.xz
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
ab() { # DIR ARGS...
  local o=$OUT/$1; shift; mkdir -p $o
  timeout 60 $B --gpu-only --runs 3 "$@" --out $o/uts.csv uts --tree t1,t1l,t3l >$o/uts.md 2>&1
  timeout 60 $B --gpu-only --runs 5 "$@" --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>&1
  timeout 60 $B --gpu-only --runs 5 "$@" --out $o/nq.csv nqueens --n 12,14,16 --cutoff 8 >$o/nq.md 2>&1
  timeout 60 $B --gpu-only --runs 5 "$@" --out $o/epaq.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 >$o/epaq.md 2>&1
  timeout 90 $B --gpu-only --runs 3 "$@" --out $o/sort.csv sort --algo cilksort,mergesort-mixed,cilksort-mixed >$o/sort.md 2>&1
  timeout 60 $B --gpu-only --runs 3 "$@" --out $o/knap.csv knapsack >$o/knap.md 2>&1
  timeout 60 $B --gpu-only --runs 3 "$@" --out $o/floor.csv floorplan >$o/floor.md 2>&1
  timeout 90 $B --gpu-only --runs 3 "$@" --grid 1000 --block 64 --out $o/gran.csv granularity --trees full,pruned \
    --full-depth 22 --pruned-depth 32 --mem-ops 0,256 --compute-iters 256 >$o/gran.md 2>&1
  date -u
}
date -u
export -f ab 2>/dev/null
run_all() { ab base1; ab fill1 --ptx .gpu-exp/fill.ptx; ab base2; ab fill2 --ptx .gpu-exp/fill.ptx; }
run_all &
pid=$!
( sleep 530; pkill -f examples/bench; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cd $OUT && tar czf /tmp/call3.tgz . && rm -rf $OUT/* && mv /tmp/call3.tgz $OUT/
