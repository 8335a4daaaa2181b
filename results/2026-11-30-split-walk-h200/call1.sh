#!/usr/bin/env bash
# Session 48, call 1: the split walk with reserved pushes (27bd92a's bench) against the
# per-spawn fib, the hand-written prototype and GTaP, fib 20..40, one call; the programs
# that do not split, b01c423's bench against 27bd92a's (module-wide inlining moved their
# PTX); then programs_gpu at 27bd92a.
set -uo pipefail
O=$OUT/c1; mkdir -p "$O"
pack() { tar -cJf "$OUT/c1.tar.xz" -C "$OUT" c1 2>/dev/null; }
E=.gpu-exp/s48
xz -dc $E/bench-s48a.xz > /tmp/bnew && chmod +x /tmp/bnew
xz -dc $E/bench-b01c423.xz > /tmp/bold && chmod +x /tmp/bold
xz -dc $E/programs_gpu-s48a.xz > /tmp/pg && chmod +x /tmp/pg
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; } > "$O/gpu.txt"
SIZES=20,22,24,26,28,30,32,35,40
export GTAP_ANCHOR_BUILD=/tmp/gtap_anchor_build
GTAP_ANCHOR_ONLY='^no program$' bash .anchor-gtap/run.sh > "$O/anchor-build.log" 2>&1
. scripts/anchor-runs.sh
anchor_loading_line > "$O/anchor.csv"
for n in ${SIZES//,/ }; do ANCHOR_RUNS=5 ANCHOR_ERR=$O/anchor.log anchor_runs fib "$n" fib "$n" >> "$O/anchor.csv"; done
pack
run() { local name=$1 b=$2; shift 2; echo "== $name $(date -u +%T)" >> "$O/progress.txt"
  timeout 150 "$b" --gpu-only --out "$O/$name.csv" "$@" > "$O/$name.md" 2> "$O/$name.log"; echo "rc=$?" >> "$O/progress.txt"; pack; }
run fib-a /tmp/bnew --runs 10 fib --n $SIZES --auto-split --split-budget 16 --split-grow 1 --split-max 2048
run fib-old /tmp/bold --runs 10 fib --n $SIZES --auto-split
run fib-b /tmp/bnew --runs 10 fib --n $SIZES --auto-split
run fib-calls8 /tmp/bnew --runs 10 --split-calls 8 fib --n $SIZES --auto-split
run fib-calls32 /tmp/bnew --runs 10 --split-calls 32 fib --n $SIZES --auto-split
run fib-r128 /tmp/bnew --runs 10 --max-registers 128 fib --n $SIZES --auto-split
run others-new /tmp/bnew --runs 10 nqueens --n 12,14,16 --cutoff 7
run others-old /tmp/bold --runs 10 nqueens --n 12,14,16 --cutoff 7
run epaq-new /tmp/bnew --runs 5 epaq fib --cutoff 16 --leaf stack
run epaq-old /tmp/bold --runs 5 epaq fib --cutoff 16 --leaf stack
echo "== programs_gpu $(date -u +%T)" >> "$O/progress.txt"
timeout 240 /tmp/pg > "$O/programs_gpu.log" 2>&1; echo "rc=$?" >> "$O/progress.txt"
echo done >> "$O/progress.txt"; pack
