#!/usr/bin/env bash
# Session 27, call 6: leaf tasks with probed shares (branch wip/leaf-tasks, working tree)
# against main's bench (3309e1a's bundle) and the branch with --no-leaf-tasks.
set -u
. scripts/jit-cache.sh
R=/tmp/s27c6; rm -rf $R; mkdir -p $R
for b in main leaf; do xz -dc .gpu-exp/bench-$b.xz > $R/bench-$b; chmod +x $R/bench-$b; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-exp/COMMIT >> $R/gpu.txt
run() { # NAME BENCH WHAT ARGS...
  local n=$1; shift; local b=$1; shift; local what=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 150 $R/bench-$b --gpu-only --config-name $n --out $o/$what.csv "$@" > $o/$what.md 2> $o/$what.log
  echo "$(date -u +%T) $n $what $?" >> $R/steps.txt
}
cfgs() { # NAME BENCH FLAGS...
  local n=$1; shift; local b=$1; shift
  run $n $b fib --runs 5 "$@" fib --n 25,30,35,40
  run $n $b epaq --runs 5 "$@" epaq fib
  run $n $b nq --runs 3 "$@" nqueens --n 12,14,16 --cutoff 7,16
}
cfgs main main
cfgs leaf leaf
cfgs inl leaf --no-leaf-tasks
tar czf $OUT/s27c6.tgz -C /tmp s27c6
for m in 8192 131072; do run leaf-c$m leaf fib --runs 5 --leaf-min-cycles $m fib --n 25,30,35,40; done
for d in 18 20; do run leaf-d$d leaf fib --runs 5 --inline-min-depth $d fib --n 30,35,40; done
for c in main leaf; do
  b=$c; F=""
  run $c $b uts --runs 3 uts
  run $c $b gran --runs 3 granularity
  run $c $b sort --runs 3 sort --algo cilksort
done
run main-2 main fib --runs 5 fib --n 30,35,40
run leaf-2 leaf fib --runs 5 fib --n 30,35,40
cat $R/steps.txt
tar czf $OUT/s27c6.tgz -C /tmp s27c6
