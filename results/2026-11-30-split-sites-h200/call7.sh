#!/usr/bin/env bash
# Session 49, call 7: the split's budget schedule at 4625948's bundle: the default (first
# budget 8, doubled per generation to 2048) against first budgets 4, 6 and 12, and the
# hand-written prototype with growth x2 and x4 per level, fib 20..40, one call.
set -uo pipefail
O=$OUT/c7; mkdir -p "$O"
pack() { tar -cJf "$OUT/c7.tar.xz" -C "$OUT" c7 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > "$O/gpu.txt"
SIZES=20,22,24,26,28,30,32,35,40
run() { local name=$1; shift; echo "== $name $(date -u +%T)" >> "$O/progress.txt"
  timeout 150 "$B" --gpu-only --out "$O/$name.csv" "$@" > "$O/$name.md" 2> "$O/$name.log"; echo "rc=$?" >> "$O/progress.txt"; pack; }
run default --runs 10 fib --n $SIZES --split-budget 8 --split-grow 1,2 --split-max 2048
run calls4 --runs 10 --split-calls 4 fib --n $SIZES
run calls6 --runs 10 --split-calls 6 fib --n $SIZES
run calls12 --runs 10 --split-calls 12 fib --n $SIZES
run proto4 --runs 10 fib --n $SIZES --split-budget 4 --split-grow 2 --split-max 2048
run default2 --runs 10 fib --n $SIZES
echo done >> "$O/progress.txt"; pack
