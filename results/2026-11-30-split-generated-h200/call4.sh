#!/usr/bin/env bash
# Session 47, call 4: the generated split with the walk's stack apart from its buffer
# (bench-split2) against the per-spawn policy, the prototype, register caps, the e45e559
# bench and GTaP, one call; then programs_gpu at that build.
set -uo pipefail
O=$OUT/c4; mkdir -p "$O"
pack() { tar -cJf "$OUT/c4.tar.xz" -C "$OUT" c4 2>/dev/null; }
xz -dc .gpu-exp/bench-e45e559.xz > /tmp/bold && chmod +x /tmp/bold
xz -dc .gpu-exp/bench-split2.xz > /tmp/bnew && chmod +x /tmp/bnew
xz -dc .gpu-exp/programs_gpu-split2.xz > /tmp/pg && chmod +x /tmp/pg
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; git log -1 --format=%H 2>/dev/null; } > "$O/gpu.txt"
SIZES=20,22,24,26,28,30,32,35,40
export GTAP_ANCHOR_BUILD=/tmp/gtap_anchor_build
GTAP_ANCHOR_ONLY='^no program$' bash .anchor-gtap/run.sh > "$O/anchor-build.log" 2>&1
. scripts/anchor-runs.sh
anchor_loading_line > "$O/anchor.csv"
for n in ${SIZES//,/ }; do ANCHOR_RUNS=5 ANCHOR_ERR=$O/anchor.log anchor_runs fib "$n" fib "$n" >> "$O/anchor.csv"; done
pack
run() { local name=$1 b=$2; shift 2; echo "== $name $(date -u +%T)" >> "$O/progress.txt"
  timeout 150 "$b" --gpu-only --out "$O/$name.csv" "$@" > "$O/$name.md" 2> "$O/$name.log"; echo "rc=$?" >> "$O/progress.txt"; pack; }
run fib-new /tmp/bnew --runs 10 fib --n $SIZES
run fib-old /tmp/bold --runs 10 fib --n $SIZES
run fib-proto /tmp/bnew --runs 10 --split-calls 0 fib --n $SIZES --split-budget 16 --split-grow 1 --split-max 2048
run fib-r144 /tmp/bnew --runs 10 --max-registers 144 fib --n $SIZES
run fib-r168 /tmp/bnew --runs 10 --max-registers 168 fib --n $SIZES
run fib-new2 /tmp/bnew --runs 10 fib --n $SIZES
echo "== programs_gpu $(date -u +%T)" >> "$O/progress.txt"
timeout 240 /tmp/pg > "$O/programs_gpu.log" 2>&1; echo "rc=$?" >> "$O/progress.txt"
echo done >> "$O/progress.txt"; pack
