#!/usr/bin/env bash
# Session 27, call 5: leaf tasks with the learned tree shape (working tree), against the same
# bench with --no-leaf-tasks (main's policy) and the policy off; fib, EPAQ, nqueens, UTS,
# trees, sorts.
set -u
. scripts/jit-cache.sh
R=/tmp/s27c5; rm -rf $R; mkdir -p $R
xz -dc .gpu-exp/bench-leaf.xz > $R/bench; chmod +x $R/bench
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt; cat .gpu-exp/COMMIT >> $R/gpu.txt
B=$R/bench
run() { # NAME SUB-ARGS (after --): runs one subcommand
  local n=$1; shift; local what=$1; shift; local o=$R/$n; mkdir -p $o
  timeout 150 $B --gpu-only --config-name $n "$@" > $o/$what.md 2> $o/$what.log
  echo "$(date -u +%T) $n $what $?" >> $R/steps.txt
}
for c in leaf inl; do
  F=""; [ $c = inl ] && F="--no-leaf-tasks"
  run $c fib --runs 5 $F --out $R/$c/fib.csv fib --n 25,30,35,40
  run $c epaq --runs 5 $F --out $R/$c/epaq.csv epaq fib
  run $c nq --runs 3 $F --out $R/$c/nq.csv nqueens --n 12,14,16 --cutoff 7,16
done
tar czf $OUT/s27c5.tgz -C /tmp s27c5
for d in 18 20; do run leaf-d$d fib --runs 5 --inline-min-depth $d --out $R/leaf-d$d/fib.csv fib --n 30,35,40; done
run leaf-s64 fib --runs 5 --leaf-min-spawns 64 --out $R/leaf-s64/fib.csv fib --n 25,30,35,40
run leaf-s1k fib --runs 5 --leaf-min-spawns 1024 --out $R/leaf-s1k/fib.csv fib --n 25,30,35,40
for c in leaf inl; do
  F=""; [ $c = inl ] && F="--no-leaf-tasks"
  run $c uts --runs 3 $F --out $R/$c/uts.csv uts
  run $c gran --runs 3 $F --out $R/$c/gran.csv granularity
done
tar czf $OUT/s27c5.tgz -C /tmp s27c5
for c in leaf inl; do
  F=""; [ $c = inl ] && F="--no-leaf-tasks"
  run $c-2 fib --runs 5 $F --out $R/$c-2/fib.csv fib --n 30,35,40
  run $c sort --runs 3 $F --out $R/$c/sort.csv sort
done
cat $R/steps.txt
tar czf $OUT/s27c5.tgz -C /tmp s27c5
