#!/usr/bin/env bash
# Session 50, call 5: the first split budget with bundles (1c20284's bundle): 2, 4 (default),
# 8, 16, fib 20..40, alternated in two rounds.
set -uo pipefail
O=$OUT/c5; mkdir -p "$O"
pack() { tar -cJf "$OUT/c5.tar.xz" -C "$OUT" c5 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > "$O/gpu.txt"
SIZES=20,22,24,26,28,30,32,35,40
run() { local name=$1; shift; echo "== $name $(date -u +%T)" >> "$O/progress.txt"
  timeout 150 "$B" --gpu-only --out "$O/$name.csv" "$@" > "$O/$name.md" 2> "$O/$name.log"; echo "rc=$?" >> "$O/progress.txt"; pack; }
for r in 1 2; do
  for c in 4 2 8 16 1; do run c$c-r$r --runs 10 --split-calls $c fib --n $SIZES; done
done
echo done >> "$O/progress.txt"; pack
