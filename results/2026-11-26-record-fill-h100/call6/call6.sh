#!/usr/bin/env bash
# Session 18, call 6: the benches of ef8845c (head) and of the new commit (new), each with its own
# embedded PTX, interleaved; UTS with its CPU baselines at the new commit; head's PTX embedded vs --ptx.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dkf .gpu-exp/bench-head.xz; chmod +x .gpu-exp/bench-head; xz -dkf .gpu-exp/head.ptx.xz
. scripts/jit-cache.sh
NEW=.gpu-bin/examples/bench; HEAD=.gpu-exp/bench-head
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
cat .gpu-bin/COMMIT | tee -a $OUT/gpu.txt
for B in $HEAD $NEW; do timeout 120 $B --gpu-only --runs 0 fib --n 20 >/dev/null 2>&1; done
date -u
ab() { # DIR BIN ARGS...
  local o=$OUT/$1; shift; local B=$1; shift; mkdir -p $o
  timeout 60 $B --gpu-only --runs 5 "$@" --out $o/nq.csv nqueens --n 12,14,16 --cutoff 8 >$o/nq.md 2>&1
  timeout 60 $B --gpu-only --runs 5 "$@" --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>&1
  timeout 60 $B --gpu-only --runs 5 "$@" --out $o/epaq.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 >$o/epaq.md 2>&1
  timeout 60 $B --gpu-only --runs 3 "$@" --out $o/uts.csv uts --tree t1,t1l,t3l >$o/uts.md 2>&1
  timeout 60 $B --gpu-only --runs 3 "$@" --out $o/floor.csv floorplan >$o/floor.md 2>&1
  timeout 60 $B --gpu-only --runs 3 "$@" --out $o/knap.csv knapsack >$o/knap.md 2>&1
  timeout 90 $B --gpu-only --runs 3 "$@" --out $o/sort.csv sort --algo cilksort,mergesort-mixed,cilksort-mixed >$o/sort.md 2>&1
  timeout 90 $B --gpu-only --runs 3 "$@" --grid 1000 --block 64 --out $o/gran.csv granularity --trees full,pruned \
    --full-depth 22 --pruned-depth 32 --mem-ops 0,256 --compute-iters 256 >$o/gran.md 2>&1
  date -u
}
run_all() {
  ab base1 $HEAD; ab new1 $NEW; ab base2 $HEAD; ab new2 $NEW
  mkdir -p $OUT/ptxfile
  timeout 60 $HEAD --gpu-only --runs 5 --ptx .gpu-exp/head.ptx --out $OUT/ptxfile/nq.csv nqueens --n 14,16 --cutoff 8 >$OUT/ptxfile/nq.md 2>&1
  timeout 60 $HEAD --gpu-only --runs 5 --out $OUT/ptxfile/nq-emb.csv nqueens --n 14,16 --cutoff 8 >$OUT/ptxfile/nq-emb.md 2>&1
  date -u
  mkdir -p $OUT/uts
  timeout 200 $NEW --runs 3 --out $OUT/uts/uts.csv uts --tree t1l,t3l >$OUT/uts/uts.md 2>&1
  date -u
}
run_all &
pid=$!
( sleep 560; pkill -f bench; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cd $OUT && tar czf /tmp/call6.tgz . && rm -rf $OUT/* && mv /tmp/call6.tgz $OUT/
