#!/usr/bin/env bash
# Session 49, call 1: the split walk with site variables (straight-line bodies and puts, one
# exit test before an unconditional pop) against 2f915fa's walk, the per-spawn fib, the
# prototype and GTaP, fib 20..40, one call; the occupancy question (prototype at 12 warps
# per SM, fib_auto capped at 128 registers); per-warp profiles of fib(30).
set -uo pipefail
O=$OUT/c1; mkdir -p "$O"
pack() { tar -cJf "$OUT/c1.tar.xz" -C "$OUT" c1 2>/dev/null; }
E=.gpu-exp/s49
xz -dc $E/bench-s49a.xz > /tmp/bnew && chmod +x /tmp/bnew
xz -dc $E/bench-2f915fa.xz > /tmp/bold && chmod +x /tmp/bold
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; } > "$O/gpu.txt"
SIZES=20,22,24,26,28,30,32,35,40
run() { local name=$1 b=$2; shift 2; echo "== $name $(date -u +%T)" >> "$O/progress.txt"
  timeout 150 "$b" --gpu-only --out "$O/$name.csv" "$@" > "$O/$name.md" 2> "$O/$name.log"; echo "rc=$?" >> "$O/progress.txt"; pack; }
run fib-new /tmp/bnew --runs 10 fib --n $SIZES --auto-split --split-budget 16 --split-grow 1 --split-max 2048
run fib-old /tmp/bold --runs 10 fib --n $SIZES --auto-split
run fib-new2 /tmp/bnew --runs 10 fib --n $SIZES --auto-split
run w12 /tmp/bnew --runs 10 --warps-per-sm 12 fib --n $SIZES --split-budget 16 --split-grow 1 --split-max 2048
run r128 /tmp/bnew --runs 10 --max-registers 128 fib --n $SIZES --auto-split
run max8k /tmp/bnew --runs 10 fib --n 30,32,35,40 --split-budget 16 --split-grow 1 --split-max 8192
run calls8 /tmp/bnew --runs 10 --split-calls 8 fib --n $SIZES --auto-split
echo "== profile $(date -u +%T)" >> "$O/progress.txt"
timeout 120 /tmp/bnew --gpu-only --profile "$O/prof" fib --n 30 --auto-split --split-budget 16 --split-grow 1 --split-max 2048 > "$O/prof.md" 2> "$O/prof.log"
echo "rc=$?" >> "$O/progress.txt"; find "$O/prof" -name '*.json' -delete; find "$O/prof" -name 'timeline.csv' -delete; pack
export GTAP_ANCHOR_BUILD=/tmp/gtap_anchor_build
GTAP_ANCHOR_ONLY='^no program$' bash .anchor-gtap/run.sh > "$O/anchor-build.log" 2>&1
. scripts/anchor-runs.sh
anchor_loading_line > "$O/anchor.csv"
for n in ${SIZES//,/ }; do ANCHOR_RUNS=5 ANCHOR_ERR=$O/anchor.log anchor_runs fib "$n" fib "$n" >> "$O/anchor.csv"; done
echo done >> "$O/progress.txt"; pack
