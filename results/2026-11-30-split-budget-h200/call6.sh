#!/usr/bin/env bash
# Session 46, call 6: nqueens split by a budget against its cutoff-7 programs and the policy
# without a cutoff; fib's best budget schedules again, on another machine.
set -uo pipefail
O=$OUT/c6; mkdir -p "$O"
pack() { tar -cJf "$OUT/c6.tar.xz" -C "$OUT" c6 2>/dev/null; }
B=/tmp/bench; xz -dc .gpu-exp/bench-s46b.xz > $B && chmod +x $B
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; git log -1 --format=%H 2>/dev/null; } > "$O/gpu.txt"
run() { local name=$1; shift; echo "== $name $(date -u +%T)" >> "$O/progress.txt"
  timeout 100 "$B" --gpu-only --out "$O/$name.csv" "$@" > "$O/$name.md" 2> "$O/$name.log"; echo "rc=$?" >> "$O/progress.txt"; pack; }
run nqcut --runs 5 nqueens --n 12,14,16 --cutoff 7 --form joined,detached
run nqsplit --runs 5 nqueens --n 12,14,16 --cutoff 16 --form joined --split-budget 16,64,256 --split-grow 0,1 --split-max 2048
run fib --runs 10 fib --n 20,22,24,26,28,30,35,40 --split-budget 16,32 --split-grow 1 --split-max 2048
run nqsplit2 --runs 5 nqueens --n 16 --cutoff 16 --form joined --split-budget 1024,4096 --split-grow 0
echo done >> "$O/progress.txt"; pack
