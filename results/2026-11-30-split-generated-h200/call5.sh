#!/usr/bin/env bash
# Session 47, call 5: at the final commit's bundle, the GPU test binaries whose kernels or
# host paths this session changed, then fib with and without split = true beside GTaP.
set -uo pipefail
O=$OUT/c5; mkdir -p "$O"
pack() { tar -cJf "$OUT/c5.tar.xz" -C "$OUT" c5 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > "$O/gpu.txt"
OUT=$O GTAP_DEADLINE_S=300 GTAP_ONLY="programs_gpu batch_gpu resident_gpu runtime_gpu storage_gpu gpu profile_gpu language_gpu stuck_gpu trap_gpu fib smoke" \
  bash scripts/gpu-run.sh > "$O/tests.log" 2>&1; echo "tests rc=$?" >> "$O/progress.txt"; pack
SIZES=20,22,24,26,28,30,32,35,40
export GTAP_ANCHOR_BUILD=/tmp/gtap_anchor_build
GTAP_ANCHOR_ONLY='^no program$' bash .anchor-gtap/run.sh > "$O/anchor-build.log" 2>&1
. scripts/anchor-runs.sh
anchor_loading_line > "$O/anchor.csv"
for n in ${SIZES//,/ }; do ANCHOR_RUNS=5 ANCHOR_ERR=$O/anchor.log anchor_runs fib "$n" fib "$n" >> "$O/anchor.csv"; done
pack
run() { local name=$1; shift; echo "== $name $(date -u +%T)" >> "$O/progress.txt"
  timeout 100 .gpu-bin/examples/bench --gpu-only --out "$O/$name.csv" "$@" > "$O/$name.md" 2> "$O/$name.log"; echo "rc=$?" >> "$O/progress.txt"; pack; }
run fib --runs 10 fib --n $SIZES --auto-split --split-budget 16 --split-grow 1 --split-max 2048
echo done >> "$O/progress.txt"; pack
