#!/usr/bin/env bash
# Session 50, call 2: split tasks that bundle their youngest pending calls (bundle of 8
# words, worker and lanes inlined: B) against 7e97f6a's bench (base), fib 20..40 with the
# bundle settings, and the other headline programs base against B, one call.
set -uo pipefail
O=$OUT/c2; mkdir -p "$O"
pack() { tar -cJf "$OUT/c2.tar.xz" -C "$OUT" c2 2>/dev/null; }
. scripts/jit-cache.sh
for b in base B; do xz -dc .gpu-exp/s50/bench-$b.xz > /tmp/bench-$b; chmod +x /tmp/bench-$b; done
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; } > "$O/gpu.txt"
SIZES=20,22,24,26,28,30,32,35,40
run() { local name=$1 bin=$2; shift 2; echo "== $name $(date -u +%T)" >> "$O/progress.txt"
  timeout 200 /tmp/bench-$bin --gpu-only --out "$O/$name.csv" "$@" > "$O/$name.md" 2> "$O/$name.log"; echo "rc=$?" >> "$O/progress.txt"; pack; }
run base base --runs 10 fib --n $SIZES
run B2 B --runs 10 fib --n $SIZES
run B0 B --runs 10 --split-singles 0 fib --n $SIZES
run B1 B --runs 10 --split-singles 1 fib --n $SIZES
run B3 B --runs 10 --split-singles 3 fib --n $SIZES
run B2f16 B --runs 10 --split-bundle-from 16 fib --n $SIZES
run B2b B --runs 10 fib --n $SIZES
run baseb base --runs 10 fib --n $SIZES
for b in base B; do
  run nq-$b $b --runs 5 nqueens --n 8,10,12,14,16 --cutoff 8
  run epaq-$b $b --runs 5 epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3
  run sorts-$b $b --runs 3 sort --algo mergesort-mixed,cilksort-mixed
done
run nq-base2 base --runs 5 nqueens --n 8,10,12,14,16 --cutoff 8
run nq-B2 B --runs 5 nqueens --n 8,10,12,14,16 --cutoff 8
echo done >> "$O/progress.txt"; pack
