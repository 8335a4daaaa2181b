#!/usr/bin/env bash
# Call 3 (session 22): the granularity policy weighing an inline call's cycles by the tasks
# it saved (`--inline-grain`), swept, against the bench of HEAD 9906367 (base; the bundle of
# 87551ec, same device code), same machine, same call. Round 1 every configuration, round 2
# base, g0 and the chosen ones again.
set -u
for b in base new; do xz -dkf .gpu-exp/bench-$b.xz; chmod +x .gpu-exp/bench-$b; done
. scripts/jit-cache.sh
R=/tmp/c3; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $R/gpu.txt
xz -dc .gpu-exp/new.ptx.xz > /tmp/new.ptx && ptxas -arch=sm_90 -v /tmp/new.ptx -o /tmp/new.cubin > $R/ptxas-new.txt 2>&1; echo "ptxas rc=$?" >> $R/steps.txt
pol() { # DIR BIN ARGS...
  local o=$R/$1; shift; local B=$1; shift; mkdir -p $o
  timeout 90 $B --gpu-only --runs 5 "$@" --out $o/fib.csv fib --n 30,35,40 >$o/fib.md 2>$o/fib.log
  timeout 60 $B --gpu-only --runs 5 "$@" --out $o/epaq.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 >$o/epaq.md 2>$o/epaq.log
  [ "${GRAN:-1}" = 1 ] && [ $SECONDS -lt 400 ] && timeout 120 $B --gpu-only --runs 3 "$@" --grid 1000 --block 64 --out $o/gran.csv granularity --trees full,pruned \
    --full-depth 22 --pruned-depth 32 --mem-ops 0,256 --compute-iters 256 >$o/gran.md 2>$o/gran.log
  echo "$(date -u +%T) $o" >> $R/steps.txt
}
date -u > $R/start.txt
pol base .gpu-exp/bench-base
pol g0 .gpu-exp/bench-new --inline-grain 0
pol g8 .gpu-exp/bench-new
pol g4 .gpu-exp/bench-new --inline-grain 4
pol g16 .gpu-exp/bench-new --inline-grain 16
pol g32 .gpu-exp/bench-new --inline-grain 32
pol off .gpu-exp/bench-new --no-auto-granularity
GRAN=0 pol base-2 .gpu-exp/bench-base
GRAN=0 pol g8-2 .gpu-exp/bench-new
GRAN=0 pol g16-2 .gpu-exp/bench-new --inline-grain 16
GRAN=0 pol g4-2 .gpu-exp/bench-new --inline-grain 4
for c in base new; do
  o=$R/nq-$c; mkdir -p $o
  timeout 90 .gpu-exp/bench-$c --gpu-only --runs 5 --out $o/nq.csv nqueens --n 12,16 --cutoff 8 --form joined,detached >$o/nq.md 2>$o/nq.log
done
echo "$(date -u +%T) done" >> $R/steps.txt
cat $R/steps.txt
tar czf $OUT/c3.tgz -C /tmp c3
