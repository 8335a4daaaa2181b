#!/usr/bin/env bash
# Session 46, call 2: fib_split with budgets that grow per level, against static budgets,
# the default (one task per call, policy on), the best hand cutoffs and GTaP, one call.
set -uo pipefail
O=$OUT/c2; mkdir -p "$O"
pack() { tar -cJf "$OUT/c2.tar.xz" -C "$OUT" c2 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > "$O/gpu.txt"
B=.gpu-bin/examples/bench
SIZES=20,22,24,26,28,30,32,35,40
export GTAP_ANCHOR_BUILD=/tmp/gtap_anchor_build
GTAP_ANCHOR_ONLY='^no program$' bash .anchor-gtap/run.sh > "$O/anchor-build.log" 2>&1
. scripts/anchor-runs.sh
anchor_loading_line > "$O/anchor.csv"
for n in ${SIZES//,/ }; do ANCHOR_RUNS=5 ANCHOR_ERR=$O/anchor.log anchor_runs fib "$n" fib "$n" >> "$O/anchor.csv"; done
pack
run() { local name=$1; shift; echo "== $name $(date -u +%T)" >> "$O/progress.txt"
  timeout 150 "$B" --gpu-only --out "$O/$name.csv" "$@" > "$O/$name.md" 2> "$O/$name.log"; echo "rc=$?" >> "$O/progress.txt"; pack; }
run growA --runs 10 fib --n $SIZES --split-budget 16,32,64 --split-grow 0,1,2 --split-max 2048
run grow1k --runs 10 fib --n $SIZES --split-budget 32,64 --split-grow 1,2 --split-max 1024
run grow4k --runs 10 fib --n $SIZES --split-budget 32,64 --split-grow 1,2 --split-max 4096
run static --runs 10 fib --n $SIZES --split-budget 128,1024
run epaq --runs 5 epaq fib --cutoff 14,16 --leaf stack
run growB --runs 10 fib --n $SIZES --split-budget 16,32,64 --split-grow 0,1,2 --split-max 2048
echo done >> "$O/progress.txt"; pack
