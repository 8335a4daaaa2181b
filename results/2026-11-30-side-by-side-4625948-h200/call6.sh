#!/usr/bin/env bash
# Session 49, call 6, on calls 4 and 5's machine: the headline side by side with GTaP and
# the CPU baselines, then the size sweep, at the bundle's commit (4625948), one call.
# Carried: .gpu-bin/bundle.tar.xz (unpacked by calls 4 and 5's suite) and .anchor-gtap.
set -u
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > /tmp/gpu.txt
RUNS=5 ANCHOR_RUNS=3 bash scripts/side-by-side.sh /tmp/sbs > /tmp/sbs-console.log 2>&1; echo "sbs rc=$? $(date -u +%T)" >> /tmp/gpu.txt
mkdir -p /tmp/sbs; cp /tmp/sbs-console.log /tmp/sbs/console.log; cp /tmp/gpu.txt /tmp/sbs/
tar czf $OUT/sbs.tgz -C /tmp sbs
RUNS=5 ANCHOR_RUNS=3 bash scripts/size-sweep.sh /tmp/sbs/sweep > /tmp/sbs/sweep-console.log 2>&1; echo "sweep rc=$? $(date -u +%T)" >> /tmp/sbs/gpu.txt
tar czf $OUT/sbs.tgz -C /tmp sbs
cat /tmp/sbs/gpu.txt
