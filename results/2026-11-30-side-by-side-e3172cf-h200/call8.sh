#!/usr/bin/env bash
# Session 49, call 8: the headline side by side with GTaP and the CPU baselines and the size
# sweep at the bundle's commit (first split budget 4), then programs_gpu (the split's GPU
# test covers the default budget), bounded.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
mkdir -p /tmp/sbs
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > /tmp/gpu.txt
RUNS=5 ANCHOR_RUNS=3 bash scripts/side-by-side.sh /tmp/sbs > /tmp/sbs-console.log 2>&1; echo "sbs rc=$? $(date -u +%T)" >> /tmp/gpu.txt
cp /tmp/sbs-console.log /tmp/sbs/console.log; cp /tmp/gpu.txt /tmp/sbs/
tar czf $OUT/sbs.tgz -C /tmp sbs
RUNS=5 ANCHOR_RUNS=3 bash scripts/size-sweep.sh /tmp/sbs/sweep > /tmp/sbs/sweep-console.log 2>&1; echo "sweep rc=$? $(date -u +%T)" >> /tmp/sbs/gpu.txt
tar czf $OUT/sbs.tgz -C /tmp sbs
. scripts/jit-cache.sh
timeout 120 .gpu-bin/tests/programs_gpu-* > /tmp/sbs/programs_gpu.log 2>&1; echo "programs_gpu rc=$? $(date -u +%T)" >> /tmp/sbs/gpu.txt
tar czf $OUT/sbs.tgz -C /tmp sbs
cat /tmp/sbs/gpu.txt
