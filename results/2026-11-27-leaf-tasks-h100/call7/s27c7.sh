#!/usr/bin/env bash
# Session 27, call 7: leaf tasks whose probes count calls (not cycles), against main.
set -u
. scripts/jit-cache.sh
R=/tmp/s27c7; rm -rf $R; mkdir -p $R
for b in main leaf; do xz -dc .gpu-exp/bench-$b.xz > $R/bench-$b; chmod +x $R/bench-$b; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-exp/COMMIT >> $R/gpu.txt
run() { # NAME BENCH WHAT ARGS...
  local n=$1; shift; local b=$1; shift; local what=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 150 $R/bench-$b --gpu-only --config-name $n --out $o/$what.csv "$@" > $o/$what.md 2> $o/$what.log
  echo "$(date -u +%T) $n $what $?" >> $R/steps.txt
}
run main main fib --runs 5 fib --n 25,30,35,40
run leaf leaf fib --runs 5 fib --n 25,30,35,40
run leaf-d18 leaf fib --runs 5 --inline-min-depth 18 fib --n 30,35,40
run leaf-d20 leaf fib --runs 5 --inline-min-depth 20 fib --n 30,35,40
run leaf-c0 leaf fib --runs 5 --leaf-min-cycles 0 fib --n 30,35,40
run leaf epaq --runs 5 epaq fib
run main epaq --runs 5 epaq fib
run leaf gran --runs 3 granularity
run leaf uts --runs 3 uts
run main-2 main fib --runs 5 fib --n 30,35,40
run leaf-2 leaf fib --runs 5 fib --n 30,35,40
cat $R/steps.txt
tar czf $OUT/s27c7.tgz -C /tmp s27c7
