#!/usr/bin/env bash
# Session 47, call 1: the generated split (fib's default now) against the per-spawn policy
# (--split-calls 0), the hand-written prototype, the e45e559 bench (before), GTaP, one call;
# and the programs that do not split, before and after, two alternated rounds.
set -uo pipefail
O=$OUT/c1; mkdir -p "$O"
pack() { tar -cJf "$OUT/c1.tar.xz" -C "$OUT" c1 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dc .gpu-exp/bench-e45e559.xz > /tmp/bold && chmod +x /tmp/bold
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > "$O/gpu.txt"
NEW=.gpu-bin/examples/bench
SIZES=20,22,24,26,28,30,32,35,40
export GTAP_ANCHOR_BUILD=/tmp/gtap_anchor_build
GTAP_ANCHOR_ONLY='^no program$' bash .anchor-gtap/run.sh > "$O/anchor-build.log" 2>&1
. scripts/anchor-runs.sh
anchor_loading_line > "$O/anchor.csv"
for n in ${SIZES//,/ }; do ANCHOR_RUNS=5 ANCHOR_ERR=$O/anchor.log anchor_runs fib "$n" fib "$n" >> "$O/anchor.csv"; done
pack
run() { local name=$1 b=$2; shift 2; echo "== $name $(date -u +%T)" >> "$O/progress.txt"
  timeout 150 "$b" --gpu-only --out "$O/$name.csv" "$@" > "$O/$name.md" 2> "$O/$name.log"; echo "rc=$?" >> "$O/progress.txt"; pack; }
run fib-new $NEW --runs 10 fib --n $SIZES
run fib-old /tmp/bold --runs 10 fib --n $SIZES
run fib-nosplit $NEW --runs 10 --split-calls 0 fib --n $SIZES
run fib-proto $NEW --runs 10 fib --n $SIZES --split-budget 16 --split-grow 1 --split-max 2048
run fib-s8 $NEW --runs 10 --split-calls 8 fib --n $SIZES
run fib-s64 $NEW --runs 10 --split-calls 64 fib --n $SIZES
for r in 1 2; do
  run nq-new$r $NEW --runs 5 nqueens --n 12,14,16
  run nq-old$r /tmp/bold --runs 5 nqueens --n 12,14,16
  run epaq-new$r $NEW --runs 5 epaq fib --cutoff 16 --leaf stack
  run epaq-old$r /tmp/bold --runs 5 epaq fib --cutoff 16 --leaf stack
  run sort-new$r $NEW --runs 5 sort
  run sort-old$r /tmp/bold --runs 5 sort
done
run fib-new2 $NEW --runs 10 fib --n $SIZES
echo done >> "$O/progress.txt"; pack
