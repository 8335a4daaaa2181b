#!/usr/bin/env bash
# Call 7 (session 22), at .gpu-bin/COMMIT: the rest of the GPU suite (call 6's deadline); base (HEAD 9906367's bench) against the bundle's
# bench in its default configuration, alternated twice, on the programs the policy change
# touches; then the size sweep (every fib 20..40, nqueens 8..16) beside GTaP.
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dkf .gpu-exp/bench-base.xz; chmod +x .gpu-exp/bench-base
. scripts/jit-cache.sh
R=/tmp/c7; rm -rf $R; mkdir -p $R
# The suite's binaries call 6 had no time for, as scripts/gpu-run.sh runs them.
for exe in .gpu-bin/tests/uts_gpu-* .gpu-bin/examples/fib .gpu-bin/examples/smoke; do
  echo "== $exe" >> $R/suite-rest.log
  GTAP_REQUIRE_GPU=1 timeout --kill-after=10 200 $exe >> $R/suite-rest.log 2>&1
  echo "== $(basename $exe) rc=$?" >> $R/suite-rest.log
done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt
ab() { # DIR BIN
  local o=$R/ab/$1; mkdir -p $o; local B=$2
  timeout 90 $B --gpu-only --runs 5 --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>$o/fib.log
  timeout 60 $B --gpu-only --runs 5 --out $o/epaq.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 >$o/epaq.md 2>$o/epaq.log
  timeout 90 $B --gpu-only --runs 3 --out $o/uts.csv uts >$o/uts.md 2>$o/uts.log
  timeout 90 $B --gpu-only --runs 3 --out $o/sort.csv sort --algo mergesort-mixed,cilksort-mixed >$o/sort.md 2>$o/sort.log
  timeout 120 $B --gpu-only --runs 3 --grid 1000 --block 64 --out $o/gran.csv granularity --trees full,pruned \
    --full-depth 22 --pruned-depth 32 --mem-ops 0,256 --compute-iters 256 >$o/gran.md 2>$o/gran.log
  echo "$(date -u +%T) ab $1" >> $R/steps.txt
}
for i in 1 2; do
  ab base-$i .gpu-exp/bench-base
  ab new-$i .gpu-bin/examples/bench
done
FIB_NS=$(seq -s, 20 40) RUNS=10 bash scripts/size-sweep.sh $R/sweep > $R/sweep.log 2>&1; echo "$(date -u +%T) sweep rc=$?" >> $R/steps.txt
cat $R/steps.txt
tar czf $OUT/c7.tgz -C /tmp c7
