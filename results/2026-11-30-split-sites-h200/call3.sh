#!/usr/bin/env bash
# Session 49, call 3: the walk's variants, alternated in two rounds, fib 20..40: A (sites
# put unconditionally, call 1's bench), C (the first site's child held as the next call,
# predicated puts), 2f915fa's walk; the prototype and GTaP in the same call.
set -uo pipefail
O=$OUT/c3; mkdir -p "$O"
pack() { tar -cJf "$OUT/c3.tar.xz" -C "$OUT" c3 2>/dev/null; }
E=.gpu-exp/s49
for v in s49a s49c 2f915fa; do xz -dc $E/bench-$v.xz > /tmp/b-$v && chmod +x /tmp/b-$v; done
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; } > "$O/gpu.txt"
SIZES=20,22,24,26,28,30,32,35,40
run() { local name=$1 b=$2; shift 2; echo "== $name $(date -u +%T)" >> "$O/progress.txt"
  timeout 150 "$b" --gpu-only --out "$O/$name.csv" "$@" > "$O/$name.md" 2> "$O/$name.log"; echo "rc=$?" >> "$O/progress.txt"; pack; }
for r in 1 2; do
  run C-$r /tmp/b-s49c --runs 10 fib --n $SIZES --auto-split
  run A-$r /tmp/b-s49a --runs 10 fib --n $SIZES --auto-split
  run old-$r /tmp/b-2f915fa --runs 10 fib --n $SIZES --auto-split
done
run proto /tmp/b-s49c --runs 10 fib --n $SIZES --split-budget 16 --split-grow 1 --split-max 2048
run C-calls8 /tmp/b-s49c --runs 10 --split-calls 8 fib --n $SIZES --auto-split
export GTAP_ANCHOR_BUILD=/tmp/gtap_anchor_build
GTAP_ANCHOR_ONLY='^no program$' bash .anchor-gtap/run.sh > "$O/anchor-build.log" 2>&1
. scripts/anchor-runs.sh
anchor_loading_line > "$O/anchor.csv"
for n in ${SIZES//,/ }; do ANCHOR_RUNS=5 ANCHOR_ERR=$O/anchor.log anchor_runs fib "$n" fib "$n" >> "$O/anchor.csv"; done
echo done >> "$O/progress.txt"; pack
