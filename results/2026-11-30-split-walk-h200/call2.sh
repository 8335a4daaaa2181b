#!/usr/bin/env bash
# Session 48, call 2: at 4fa9b8a's bundle (fib split by default): fib 20..40 by default, with
# the per-spawn policy alone (--split-calls 0), the hand-written prototype, b01c423's default
# and GTaP, one call; then the GPU test binaries that run fib or may hold summing tasks.
set -uo pipefail
O=$OUT/c2; mkdir -p "$O"
pack() { tar -cJf "$OUT/c2.tar.xz" -C "$OUT" c2 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dc .gpu-exp/s48/bench-b01c423.xz > /tmp/bold && chmod +x /tmp/bold
B=.gpu-bin/examples/bench
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > "$O/gpu.txt"
SIZES=20,22,24,26,28,30,32,35,40
export GTAP_ANCHOR_BUILD=/tmp/gtap_anchor_build
GTAP_ANCHOR_ONLY='^no program$' bash .anchor-gtap/run.sh > "$O/anchor-build.log" 2>&1
. scripts/anchor-runs.sh
anchor_loading_line > "$O/anchor.csv"
for n in ${SIZES//,/ }; do ANCHOR_RUNS=5 ANCHOR_ERR=$O/anchor.log anchor_runs fib "$n" fib "$n" >> "$O/anchor.csv"; done
pack
run() { local name=$1 b=$2; shift 2; echo "== $name $(date -u +%T)" >> "$O/progress.txt"
  timeout 150 "$b" --gpu-only --out "$O/$name.csv" "$@" > "$O/$name.md" 2> "$O/$name.log"; echo "rc=$?" >> "$O/progress.txt"; pack; }
run fib-a $B --runs 10 fib --n $SIZES --split-budget 16 --split-grow 1 --split-max 2048
run fib-perspawn $B --runs 10 --split-calls 0 fib --n $SIZES
run fib-old /tmp/bold --runs 10 fib --n $SIZES
run fib-b $B --runs 10 fib --n $SIZES
echo "== tests $(date -u +%T)" >> "$O/progress.txt"
OUT=$O GTAP_DEADLINE_S=330 GTAP_ONLY="programs_gpu batch_gpu profile_gpu resident_gpu runtime_gpu random_gpu language_gpu fib smoke" \
  bash scripts/gpu-run.sh > "$O/tests.log" 2>&1; echo "tests rc=$?" >> "$O/progress.txt"
echo done >> "$O/progress.txt"; pack
