#!/usr/bin/env bash
# Session 46, call 1: fib split by a budget of calls (fib_split) against the default
# (one task per call, policy on), the policy off, the best hand cutoffs and GTaP, one call.
set -uo pipefail
O=$OUT/c1; mkdir -p "$O"
pack() { tar -cJf "$OUT/c1.tar.xz" -C "$OUT" c1 2>/dev/null; }
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
run splitA --runs 10 fib --n $SIZES --split-budget 16,64,256,1024,4096
run offA --runs 10 --no-auto-granularity fib --n $SIZES
run epaq --runs 5 epaq fib --cutoff 12,14,16,18 --leaf stack
run splitB --runs 10 fib --n $SIZES --split-budget 16,64,256,1024,4096
run split32 --runs 10 fib --n $SIZES --split-budget 8,32,128,512,2048
echo done >> "$O/progress.txt"; pack
