#!/usr/bin/env bash
# Session 23, call 6: a shared back-off floor (branch wip/floor) against main (0fed0d0, the
# bundle's bench), default configuration, alternated twice.
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dkf .gpu-exp/bench-floor.xz; chmod +x .gpu-exp/bench-floor
. scripts/jit-cache.sh
R=/tmp/s23c6; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
ab() { # DIR BIN
  local o=$R/ab/$1; mkdir -p $o; local B=$2
  timeout 90 $B --gpu-only --runs 5 --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>$o/fib.log
  timeout 60 $B --gpu-only --runs 5 --out $o/epaq.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 >$o/epaq.md 2>$o/epaq.log
  echo "$(date -u +%T) ab $1" >> $R/steps.txt
}
ab2() {
  local o=$R/ab/$1; mkdir -p $o; local B=$2
  timeout 90 $B --gpu-only --runs 3 --out $o/uts.csv uts >$o/uts.md 2>$o/uts.log
  timeout 120 $B --gpu-only --runs 3 --grid 1000 --block 64 --out $o/gran.csv granularity --trees full,pruned \
    --full-depth 22 --pruned-depth 32 --mem-ops 0,256 --compute-iters 256 >$o/gran.md 2>$o/gran.log
  timeout 60 $B --gpu-only --runs 5 --out $o/nq.csv nqueens --n 12,14,16 >$o/nq.md 2>$o/nq.log
  echo "$(date -u +%T) ab2 $1" >> $R/steps.txt
}
for i in 1 2; do ab main-$i .gpu-bin/examples/bench; ab floor-$i .gpu-exp/bench-floor; done
tar czf $OUT/s23c6.tgz -C /tmp s23c6
ab2 main-1 .gpu-bin/examples/bench; ab2 floor-1 .gpu-exp/bench-floor
cat $R/steps.txt
tar czf $OUT/s23c6.tgz -C /tmp s23c6
