#!/usr/bin/env bash
# Session 17, call 5: the side-by-side record at the bundle's commit, then the bundle's bench
# against e0eb8ee's (the back-off policy and cilksort-mixed on views), same call.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dkf .gpu-exp/bench-base.xz; chmod +x .gpu-exp/bench-base
. scripts/jit-cache.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
cat .gpu-bin/COMMIT | tee $OUT/commit.txt
date -u
# programs_gpu again, alone (call 4's run failed one test: its hang-test child could not set
# the stack limit, out of memory, while the binary's other tests held the GPU's memory).
P=$(ls .gpu-bin/tests/programs_gpu-* | head -1)
GTAP_REQUIRE_GPU=1 timeout 150 $P > $OUT/programs_gpu-alone.log 2>&1; echo "rc=$?" >> $OUT/programs_gpu-alone.log
date -u
RUNS=10 timeout 330 bash scripts/side-by-side.sh $OUT/sbs > $OUT/sbs.log 2>&1
echo "sbs rc=$?" >> $OUT/sbs.log
date -u
ab() { # DIR BIN
  local o=$OUT/ab-$1; local B=$2; mkdir -p $o
  timeout 60 $B --gpu-only --runs 5 --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>&1
  timeout 60 $B --gpu-only --runs 5 --out $o/epaq.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 >$o/epaq.md 2>&1
  timeout 90 $B --gpu-only --runs 3 --grid 1000 --block 64 --out $o/gran.csv granularity --trees full,pruned \
    --full-depth 22 --pruned-depth 32 --mem-ops 0,256 --compute-iters 256 >$o/gran.md 2>&1
  timeout 90 $B --gpu-only --runs 5 --out $o/sort.csv sort --algo mergesort-mixed,cilksort-mixed >$o/sort.md 2>&1
  date -u
}
ab base1 .gpu-exp/bench-base
ab new1 .gpu-bin/examples/bench
ab base2 .gpu-exp/bench-base
ab new2 .gpu-bin/examples/bench
cd $OUT && tar czf /tmp/call5.tgz . && rm -rf $OUT/* && mv /tmp/call5.tgz $OUT/
