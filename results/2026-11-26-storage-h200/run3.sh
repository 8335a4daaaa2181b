#!/usr/bin/env bash
# Storage branch, GPU call 2: everything into one log ($OUT/all.log), a summary on stdout.
set -u
cd "$(dirname "$0")"
L=${OUT:-/tmp}/all.log
: > $L
say() { echo "$@" | tee -a $L; }
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv >> $L 2>&1
say "== storage_gpu"
GTAP_REQUIRE_GPU=1 timeout -k 5 60 ./storage_gpu --test-threads=1 >> $L 2>&1; say "rc $?"
say "== language_gpu"
GTAP_REQUIRE_GPU=1 timeout -k 5 90 ./language_gpu --test-threads=1 >> $L 2>&1; say "rc $?"
for round in 1 2; do
  for b in base new; do
    for p in fib nqueens; do
      say "== $p $b round $round"
      timeout -k 5 60 ./bench-$b --gpu-only --runs 10 $p > t.log 2>&1; say "rc $?"
      cat t.log >> $L; grep -E "median" t.log | cut -c1-160
    done
  done
done
for c in 9 10 11; do
  say "== epaq nqueens base cutoff $c"
  timeout -k 5 40 ./bench-base --runs 1 epaq nqueens --cutoff $c > t.log 2>&1; say "rc $?"
  cat t.log >> $L; grep -E "median|rror|xhaust" t.log | cut -c1-200
done
for c in 16384 32768; do
  for b in new base; do
    say "== tree $b $c"
    timeout -k 5 60 ./bench-$b --gpu-only --grid 1000 --block 64 --runs 3 granularity --trees pruned --full-depth 32 --pruned-depth 32 --mem-ops 256 --compute-iters $c > t.log 2>&1; say "rc $?"
    cat t.log >> $L; grep -E "median|rror|xhaust" t.log | cut -c1-200
  done
done
say "== epaq cilksort new"
timeout -k 5 90 ./bench-new --runs 1 epaq cilksort --cutoff 64,128,256,512,1024,2048,4096 > t.log 2>&1; say "rc $?"
cat t.log >> $L; grep -E "median|rror|xhaust" t.log | cut -c1-200
rm -f t.log
