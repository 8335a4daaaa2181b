#!/usr/bin/env bash
# Storage branch, GPU call 1: tests, then before/after benches.
set -u
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv > $O/gpu.txt 2>&1
echo "== storage_gpu"
GTAP_REQUIRE_GPU=1 timeout -k 5 60 ./storage_gpu --test-threads=1 > $O/storage_gpu.log 2>&1; echo "rc $?"
tail -5 $O/storage_gpu.log
echo "== language_gpu"
GTAP_REQUIRE_GPU=1 timeout -k 5 90 ./language_gpu --test-threads=1 > $O/language_gpu.log 2>&1; echo "rc $?"
tail -4 $O/language_gpu.log
for b in base new; do
  echo "== fib/nqueens $b"
  timeout -k 5 60 ./bench-$b --gpu-only --runs 10 fib > $O/fib-$b.log 2>&1; echo "rc $?"
  grep -E "median|grid" $O/fib-$b.log | head -4
  timeout -k 5 60 ./bench-$b --gpu-only --runs 10 nqueens > $O/nq-$b.log 2>&1; echo "rc $?"
  grep -E "median|grid" $O/nq-$b.log | head -4
done
for b in new base; do
  echo "== fib/nqueens again $b"
  timeout -k 5 60 ./bench-$b --gpu-only --runs 10 fib > $O/fib2-$b.log 2>&1; echo "rc $?"
  grep -E "median|grid" $O/fib2-$b.log | head -4
  timeout -k 5 60 ./bench-$b --gpu-only --runs 10 nqueens > $O/nq2-$b.log 2>&1; echo "rc $?"
  grep -E "median|grid" $O/nq2-$b.log | head -4
done
echo "== epaq nqueens base cutoff 8"
timeout -k 5 40 ./bench-base --runs 1 epaq nqueens --cutoff 8 > $O/epaq-base-8.log 2>&1; echo "rc $?"
tail -3 $O/epaq-base-8.log
echo "== epaq nqueens new cutoffs 4..12"
for c in 4 5 6 7 8 9 10 11 12; do
  timeout -k 5 28 ./bench-new --runs 1 epaq nqueens --cutoff $c > $O/epaq-new-$c.log 2>&1; echo "cutoff $c rc $?"
  grep -E "median|grid|rror|xhaust" $O/epaq-new-$c.log | head -8
done
