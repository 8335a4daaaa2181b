#!/usr/bin/env bash
# Session 27, call 9: depths recomputed from path counts with the warp's current steps
# (path.ptx, learned), against fib's steps fixed (fixed.ptx) and main.
set -u
. scripts/jit-cache.sh
R=/tmp/s27c9; rm -rf $R; mkdir -p $R /tmp/s27bin
for b in main leaf; do xz -dc .gpu-exp/bench-$b.xz > /tmp/s27bin/bench-$b; chmod +x /tmp/s27bin/bench-$b; done
for p in fixed path; do xz -dc .gpu-exp/$p.ptx.xz > /tmp/s27bin/$p.ptx; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-exp/COMMIT >> $R/gpu.txt
run() { # NAME BENCH WHAT ARGS...
  local n=$1; shift; local b=$1; shift; local what=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 150 /tmp/s27bin/bench-$b --gpu-only --config-name $n --out $o/$what.csv "$@" > $o/$what.md 2> $o/$what.log
  echo "$(date -u +%T) $n $what $?" >> $R/steps.txt
}
P="--ptx /tmp/s27bin/path.ptx"
run main main fib --runs 5 fib --n 25,30,35,40
run path leaf fib --runs 5 $P fib --n 25,30,35,40
run fixed leaf fib --runs 5 --ptx /tmp/s27bin/fixed.ptx fib --n 25,30,35,40
run path-d20 leaf fib --runs 5 $P --inline-min-depth 20 fib --n 30,35,40
run main main epaq --runs 5 epaq fib
run path leaf epaq --runs 5 $P epaq fib
run main main nq --runs 3 nqueens --n 12,14,16 --cutoff 7,16
run path leaf nq --runs 3 $P nqueens --n 12,14,16 --cutoff 7,16
run main main gran --runs 3 granularity
run path leaf gran --runs 3 $P granularity
run main main uts --runs 3 uts
run path leaf uts --runs 3 $P uts
run main-2 main fib --runs 5 fib --n 30,35,40
run path-2 leaf fib --runs 5 $P fib --n 30,35,40
cat $R/steps.txt
tar czf $OUT/s27c9.tgz -C /tmp s27c9
