#!/usr/bin/env bash
# Session 48, call 3: at 4bbb7cb's bundle (split opt-in again, the faster walk): fib with and
# without split = true beside the prototype; nqueens and the EPAQ pair against b01c423's
# bench; then the GPU suite's first part (bounded; call 4 runs the rest on the same machine).
set -uo pipefail
O=$OUT/c3; mkdir -p "$O"
pack() { tar -cJf "$OUT/c3.tar.xz" -C "$OUT" c3 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dc .gpu-exp/s48/bench-b01c423.xz > /tmp/bold && chmod +x /tmp/bold
B=.gpu-bin/examples/bench
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > "$O/gpu.txt"
run() { local name=$1 b=$2; shift 2; echo "== $name $(date -u +%T)" >> "$O/progress.txt"
  timeout 150 "$b" --gpu-only --out "$O/$name.csv" "$@" > "$O/$name.md" 2> "$O/$name.log"; echo "rc=$?" >> "$O/progress.txt"; pack; }
run fib $B --runs 10 fib --n 20,22,24,26,28,30,32,35,40 --auto-split --split-budget 16 --split-grow 1 --split-max 2048
run nq-new $B --runs 10 nqueens --n 12,14,16 --cutoff 7
run nq-old /tmp/bold --runs 10 nqueens --n 12,14,16 --cutoff 7
run epaq-new $B --runs 5 epaq fib --cutoff 16 --leaf stack
run epaq-old /tmp/bold --runs 5 epaq fib --cutoff 16 --leaf stack
start=$SECONDS
OUT=$O GTAP_DEADLINE_S=${DEADLINE:-360} bash scripts/gpu-suite-part.sh > "$O/suite-part.log" 2>&1
echo "suite-part rc=$? at $((SECONDS - start)) s" >> "$O/suite-part.log"
echo done >> "$O/progress.txt"; pack
