#!/usr/bin/env bash
# Session 23, call 1: extra tasks per round (GpuConfig::extra_tasks), same binary, 0 against
# 32 (and 16 on some), alternated; ptxas -v of the new PTX.
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/s23c1; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
xz -dc .gpu-exp/s23.ptx.xz > /tmp/s23.ptx && ptxas -arch=sm_90 -v /tmp/s23.ptx -o /tmp/s23.cubin > $R/ptxas.txt 2>&1; echo "ptxas rc=$?" >> $R/steps.txt
B=.gpu-bin/examples/bench
ab() { # DIR EXTRA
  local o=$R/ab/$1; mkdir -p $o; local X="--extra-tasks $2"
  timeout 90 $B --gpu-only --runs 5 $X --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>$o/fib.log
  timeout 90 $B --gpu-only --runs 5 $X --out $o/nq.csv nqueens --n 12,14,16 >$o/nq.md 2>$o/nq.log
  timeout 60 $B --gpu-only --runs 5 $X --out $o/epaq.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 >$o/epaq.md 2>$o/epaq.log
  echo "$(date -u +%T) ab $1" >> $R/steps.txt
}
ab2() { # DIR EXTRA
  local o=$R/ab/$1; mkdir -p $o; local X="--extra-tasks $2"
  timeout 90 $B --gpu-only --runs 3 $X --out $o/uts.csv uts >$o/uts.md 2>$o/uts.log
  timeout 90 $B --gpu-only --runs 3 $X --out $o/sort.csv sort --algo mergesort-mixed,cilksort-mixed >$o/sort.md 2>$o/sort.log
  timeout 120 $B --gpu-only --runs 3 $X --grid 1000 --block 64 --out $o/gran.csv granularity --trees full,pruned \
    --full-depth 22 --pruned-depth 32 --mem-ops 0,256 --compute-iters 256 >$o/gran.md 2>$o/gran.log
  timeout 60 $B --gpu-only --runs 2 $X --out $o/nqfull.csv nqueens --n 16 --cutoff 16 --form joined >$o/nqfull.md 2>$o/nqfull.log
  echo "$(date -u +%T) ab2 $1" >> $R/steps.txt
}
for i in 1 2; do
  ab x0-$i 0; ab x32-$i 32
done
ab x16-1 16
tar czf $OUT/s23c1.tgz -C /tmp s23c1
for i in 1; do ab2 x0-$i 0; ab2 x32-$i 32; done
cat $R/steps.txt
tar czf $OUT/s23c1.tgz -C /tmp s23c1
