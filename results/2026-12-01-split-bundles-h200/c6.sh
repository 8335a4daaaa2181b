#!/usr/bin/env bash
# Session 50, call 6: at the bundle's commit (first split budget 2): the headline side by
# side with GTaP and the CPU baselines, the size sweep, fib(40)'s hand-written cutoffs beside
# the default fib, then programs_gpu (its split test covers the new default), bounded.
set -u
O=$OUT/c6; S=$O/sbs; mkdir -p $S
pack() { tar -cJf "$OUT/c6.tar.xz" -C "$OUT" c6 2>/dev/null; }
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > $S/gpu.txt
RUNS=5 ANCHOR_RUNS=3 bash scripts/side-by-side.sh $S > $S/console.log 2>&1; echo "sbs rc=$? $(date -u +%T)" >> $S/gpu.txt; pack
RUNS=5 ANCHOR_RUNS=3 bash scripts/size-sweep.sh $S/sweep > $S/sweep-console.log 2>&1; echo "sweep rc=$? $(date -u +%T)" >> $S/gpu.txt; pack
. scripts/jit-cache.sh
timeout 120 .gpu-bin/examples/bench --gpu-only --runs 5 --out $S/cutoffs.csv fib --n 40 > $S/cutoffs-fib.md 2> $S/cutoffs-fib.log
timeout 150 .gpu-bin/examples/bench --gpu-only --runs 5 --out $S/cutoffs-epaq.csv epaq fib --n 40 --cutoff 14,16 --leaf both --queues 1,3 > $S/cutoffs-epaq.md 2> $S/cutoffs-epaq.log
echo "cutoffs done $(date -u +%T)" >> $S/gpu.txt; pack
timeout 150 .gpu-bin/tests/programs_gpu-* > $O/programs_gpu.log 2>&1; echo "programs_gpu rc=$? $(date -u +%T)" >> $S/gpu.txt; pack
cat $S/gpu.txt; tail -3 $O/programs_gpu.log
