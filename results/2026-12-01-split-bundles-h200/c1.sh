#!/usr/bin/env bash
# Session 50, call 1: split tasks that bundle their youngest pending calls, against the
# split of 7e97f6a (HEAD at the session's start), fib 20..40, one call.
set -uo pipefail
O=$OUT/c1; mkdir -p "$O"
pack() { tar -cJf "$OUT/c1.tar.xz" -C "$OUT" c1 2>/dev/null; }
. scripts/jit-cache.sh
for b in base new; do xz -dc .gpu-exp/s50/bench-$b.xz > /tmp/bench-$b; chmod +x /tmp/bench-$b; done
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; } > "$O/gpu.txt"
SIZES=20,22,24,26,28,30,32,35,40
run() { local name=$1 bin=$2; shift 2; echo "== $name $(date -u +%T)" >> "$O/progress.txt"
  timeout 150 /tmp/bench-$bin --gpu-only --out "$O/$name.csv" "$@" > "$O/$name.md" 2> "$O/$name.log"; echo "rc=$?" >> "$O/progress.txt"; pack; }
run base base --runs 10 fib --n $SIZES
run s0 new --runs 10 --split-singles 0 fib --n $SIZES
run s2 new --runs 10 fib --n $SIZES
run s1 new --runs 10 --split-singles 1 fib --n $SIZES
run s4 new --runs 10 --split-singles 4 fib --n $SIZES
run s2f64 new --runs 10 --split-bundle-from 64 fib --n $SIZES
run s1f64 new --runs 10 --split-singles 1 --split-bundle-from 64 fib --n $SIZES
run s2b new --runs 10 fib --n $SIZES
run baseb base --runs 10 fib --n $SIZES
echo done >> "$O/progress.txt"; pack
