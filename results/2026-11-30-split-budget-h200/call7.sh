#!/usr/bin/env bash
# Session 46, call 7: fib_split's walk, larger call first against smaller call first, with
# the default program beside them (no GTaP: the device time left did not allow its build).
set -uo pipefail
O=$OUT/c7; mkdir -p "$O"
pack() { tar -cJf "$OUT/c7.tar.xz" -C "$OUT" c7 2>/dev/null; }
B=/tmp/bench; xz -dc .gpu-exp/bench-s46c.xz > $B && chmod +x $B
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; } > "$O/gpu.txt"
timeout 120 "$B" --gpu-only --runs 10 --out "$O/walk.csv" fib --n 20,22,24,26,28,30,35,40 \
  --split-budget 16,64 --split-grow 1,0 --split-max 2048 --split-smaller-first > "$O/walk.md" 2> "$O/walk.log"
echo "rc=$?" >> "$O/gpu.txt"; pack
