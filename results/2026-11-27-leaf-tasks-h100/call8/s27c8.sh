#!/usr/bin/env bash
# Session 27, call 8: what keeps the learned leaves from the oracle's 4.1 ms: the branch with
# fib's steps fixed (fixed.ptx), with small leaves' samples left out (minc.ptx, bootstrap 4
# levels), against main; the branch's bench (call 7's) runs every PTX.
set -u
. scripts/jit-cache.sh
R=/tmp/s27c8; rm -rf $R; mkdir -p $R
for b in main leaf; do xz -dc .gpu-exp/bench-$b.xz > $R/bench-$b; chmod +x $R/bench-$b; done
for p in fixed minc; do xz -dc .gpu-exp/$p.ptx.xz > $R/$p.ptx; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-exp/COMMIT >> $R/gpu.txt
run() { # NAME BENCH WHAT ARGS...
  local n=$1; shift; local b=$1; shift; local what=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 150 $R/bench-$b --gpu-only --config-name $n --out $o/$what.csv "$@" > $o/$what.md 2> $o/$what.log
  echo "$(date -u +%T) $n $what $?" >> $R/steps.txt
}
run main main fib --runs 5 fib --n 25,30,35,40
run fixed leaf fib --runs 5 --ptx $R/fixed.ptx fib --n 25,30,35,40
run fixed-c0 leaf fib --runs 5 --ptx $R/fixed.ptx --leaf-min-cycles 0 fib --n 25,30,35,40
run fixed-d20 leaf fib --runs 5 --ptx $R/fixed.ptx --inline-min-depth 20 fib --n 30,35,40
run minc leaf fib --runs 5 --ptx $R/minc.ptx fib --n 25,30,35,40
run minc-c0 leaf fib --runs 5 --ptx $R/minc.ptx --leaf-min-cycles 0 fib --n 25,30,35,40
run probe leaf fib --runs 5 fib --n 25,30,35,40
run main main epaq --runs 5 epaq fib
run minc leaf epaq --runs 5 --ptx $R/minc.ptx epaq fib
run main-2 main fib --runs 5 fib --n 30,35,40
run fixed-2 leaf fib --runs 5 --ptx $R/fixed.ptx fib --n 30,35,40
run minc-2 leaf fib --runs 5 --ptx $R/minc.ptx fib --n 30,35,40
cat $R/steps.txt
tar czf $OUT/s27c8.tgz -C /tmp s27c8
