#!/usr/bin/env bash
# Call 5 (session 22): the policy weighing the rounds its inline calls held against what the
# tasks they saved would have cost (`--inline-task-rounds`, default 4), swept, against the
# bench of HEAD 9906367 (base),
# same machine, same call; two rounds of fib and the EPAQ pair, one of the trees; nqueens,
# UTS and the sorts for base and the new default; ptxas -v of both PTX files.
set -u
for b in base new; do xz -dkf .gpu-exp/bench-$b.xz; chmod +x .gpu-exp/bench-$b; done
. scripts/jit-cache.sh
R=/tmp/c5; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $R/gpu.txt
for b in base new; do
  xz -dc .gpu-exp/$b.ptx.xz > /tmp/$b.ptx && [ $b = new ] && ptxas -arch=sm_90 -v /tmp/$b.ptx -o /tmp/$b.cubin > $R/ptxas-$b.txt 2>&1; echo "ptxas $b rc=$?" >> $R/steps.txt
done
pol() { # DIR BIN ARGS...
  local o=$R/$1; shift; local B=$1; shift; mkdir -p $o
  timeout 90 $B --gpu-only --runs 5 "$@" --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>$o/fib.log
  timeout 60 $B --gpu-only --runs 5 "$@" --out $o/epaq.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 >$o/epaq.md 2>$o/epaq.log
  [ "${GRAN:-1}" = 1 ] && timeout 120 $B --gpu-only --runs 3 "$@" --grid 1000 --block 64 --out $o/gran.csv granularity --trees full,pruned \
    --full-depth 22 --pruned-depth 32 --mem-ops 0,256 --compute-iters 256 >$o/gran.md 2>$o/gran.log
  echo "$(date -u +%T) $o" >> $R/steps.txt
}
date -u > $R/start.txt
pol base .gpu-exp/bench-base
pol f4 .gpu-exp/bench-new
pol f0 .gpu-exp/bench-new --inline-task-rounds 0
pol f1 .gpu-exp/bench-new --inline-task-rounds 1
pol f2 .gpu-exp/bench-new --inline-task-rounds 2
pol f8 .gpu-exp/bench-new --inline-task-rounds 8
GRAN=0 pol off .gpu-exp/bench-new --no-auto-granularity
GRAN=0 pol base-2 .gpu-exp/bench-base
pol f4-2 .gpu-exp/bench-new
GRAN=0 pol f2-2 .gpu-exp/bench-new --inline-task-rounds 2
GRAN=0 pol f8-2 .gpu-exp/bench-new --inline-task-rounds 8
for c in base new; do
  o=$R/more-$c; mkdir -p $o
  timeout 90 .gpu-exp/bench-$c --gpu-only --runs 5 --out $o/nq.csv nqueens --n 12,16 --cutoff 8 --form joined,detached >$o/nq.md 2>$o/nq.log
  timeout 120 .gpu-exp/bench-$c --gpu-only --runs 3 --out $o/uts.csv uts >$o/uts.md 2>$o/uts.log
  timeout 120 .gpu-exp/bench-$c --gpu-only --runs 3 --out $o/sort.csv sort --algo mergesort-mixed,cilksort-mixed >$o/sort.md 2>$o/sort.log
  echo "$(date -u +%T) $o" >> $R/steps.txt
done
cat $R/steps.txt
tar czf $OUT/c5.tgz -C /tmp c5
