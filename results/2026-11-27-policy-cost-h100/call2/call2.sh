#!/usr/bin/env bash
# Call 2 (session 22): the full size sweep (every fib 20..40, nqueens 8..16) beside GTaP at
# HEAD's device code (bundle of 87551ec), default configuration.
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
S=/tmp/c2; rm -rf $S; mkdir -p $S
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $S/gpu.txt
date -u +%FT%TZ >> $S/gpu.txt
FIB_NS=$(seq -s, 20 40) RUNS=10 bash scripts/size-sweep.sh $S/sweep > $S/sweep.log 2>&1; echo "sweep rc=$?" >> $S/steps.txt
cat $S/steps.txt
tar czf $OUT/c2.tgz -C /tmp c2
