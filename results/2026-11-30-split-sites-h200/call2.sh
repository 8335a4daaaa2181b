#!/usr/bin/env bash
# Session 49, call 2: ncu's source view of the split (fib_auto) at fib(30), full grid, and
# on one warp at fib(24) (every stall on the critical path), with the walk of call 1's bench.
set -uo pipefail
O=$OUT/c2; mkdir -p "$O"
pack() { tar -cJf "$OUT/c2.tar.xz" -C "$OUT" c2 2>/dev/null; }
xz -dc .gpu-exp/s49/bench-s49a.xz > /tmp/bnew && chmod +x /tmp/bnew
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; which ncu; ncu --version | tail -1; } > "$O/gpu.txt" 2>&1
export BENCH=/tmp/bnew
timeout 200 bash scripts/ncu-source.sh "$O" auto30 gtap_fib_auto -- --gpu-only --runs 0 fib --n 30 --auto-split > "$O/ncu1.log" 2>&1; echo "rc=$?" >> "$O/ncu1.log"; pack
timeout 150 bash scripts/ncu-source.sh "$O" auto24w1 gtap_fib_auto -- --gpu-only --runs 0 --grid 1 fib --n 24 --auto-split > "$O/ncu2.log" 2>&1; echo "rc=$?" >> "$O/ncu2.log"; pack
timeout 150 bash scripts/ncu-source.sh "$O" proto24w1 gtap_fib_split -- --gpu-only --runs 0 --grid 1 fib --n 24 --split-budget 16 --split-grow 1 --split-max 2048 > "$O/ncu3.log" 2>&1; echo "rc=$?" >> "$O/ncu3.log"
echo done >> "$O/c2.done"; pack
