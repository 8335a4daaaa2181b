#!/usr/bin/env bash
# Session 46, call 3: (A) one queue check (e45e559's kernels) against d0cf6b3's, one bench
# host; (B) per-warp profiles of fib(20), one task per call and split by a budget;
# (C) the GPU suite at the bundle's commit, to the call's end.
set -uo pipefail
start=$SECONDS
O=$OUT/c3; mkdir -p "$O"
pack() { tar -cJf "$OUT/c3.tar.xz" -C "$OUT" c3 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > "$O/gpu.txt"
AB_OUT=$O/ab . scripts/ab-ptx.sh .gpu-exp/bench-s46.xz s46base s46cq
for r in 1 2; do for v in s46base s46cq; do
  ab_run $v fib$r --runs 10 fib --n 16,20,24,30,40
  ab_run $v nq$r --runs 5 nqueens --n 12,16 --cutoff 8
  ab_run $v kn$r --runs 5 knapsack
  ab_run $v ep$r --runs 5 epaq fib --cutoff 10 --queues 1,3
done; done
ab_summary; pack
echo "A done at $((SECONDS - start)) s" >> "$O/progress.txt"
B=.gpu-bin/examples/bench
timeout 120 "$B" --profile "$O/prof" fib --n 20 --split-budget 16 --split-grow 1 --split-max 2048 > "$O/prof.md" 2> "$O/prof.log"
find "$O/prof" -name trace.json -delete
find "$O/prof" -name '*.csv' -size +200k -exec xz -9 {} \;
pack
echo "B done at $((SECONDS - start)) s" >> "$O/progress.txt"
left=$((560 - (SECONDS - start)))
OUT=$O GTAP_DEADLINE_S=$left bash scripts/gpu-suite-part.sh > "$O/suite.log" 2>&1
echo "suite rc=$? at $((SECONDS - start)) s" >> "$O/progress.txt"
pack
