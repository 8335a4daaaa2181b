#!/usr/bin/env bash
# Session 50, call 4 (the machine of call 3): the rest of the GPU suite, then the headline
# side by side with GTaP and the CPU baselines, the size sweep, and fib(40)'s hand-written
# cutoffs (EPAQ, 1 and 3 queues, both leaves) beside the default fib, at the bundle's commit.
set -u
O=$OUT/c4; mkdir -p "$O"
pack() { tar -cJf "$OUT/c4.tar.xz" -C "$OUT" c4 2>/dev/null; }
start=$SECONDS
OUT=$O GTAP_DEADLINE_S=150 bash scripts/gpu-suite-part.sh > "$O/suite-part.log" 2>&1
echo "suite-part rc=$? at $((SECONDS - start)) s" >> "$O/suite-part.log"; pack
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
S=$O/sbs; mkdir -p $S
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > $S/gpu.txt
RUNS=5 ANCHOR_RUNS=3 bash scripts/side-by-side.sh $S > $S/console.log 2>&1; echo "sbs rc=$? $(date -u +%T)" >> $S/gpu.txt; pack
[ $SECONDS -lt 380 ] && RUNS=5 ANCHOR_RUNS=3 bash scripts/size-sweep.sh $S/sweep > $S/sweep-console.log 2>&1; echo "sweep rc=$? $(date -u +%T)" >> $S/gpu.txt; pack
. scripts/jit-cache.sh
timeout 120 .gpu-bin/examples/bench --gpu-only --runs 5 --out $S/cutoffs.csv fib --n 40 > $S/cutoffs-fib.md 2> $S/cutoffs-fib.log
timeout 150 .gpu-bin/examples/bench --gpu-only --runs 5 --out $S/cutoffs-epaq.csv epaq fib --n 40 --cutoff 10,14,16,18 --leaf both --queues 1,3 > $S/cutoffs-epaq.md 2> $S/cutoffs-epaq.log
echo "cutoffs done $(date -u +%T)" >> $S/gpu.txt; pack
cat $S/gpu.txt
