#!/usr/bin/env bash
# Call 8 (session 22), at .gpu-bin/COMMIT: the headline table (scripts/side-by-side.sh).
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/c8; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt; date -u +%FT%TZ >> $R/gpu.txt
RUNS=10 bash scripts/side-by-side.sh $R/sbs > $R/sbs.log 2>&1; echo "$(date -u +%T) sbs rc=$?" >> $R/steps.txt
cat $R/steps.txt
tar czf $OUT/c8.tgz -C /tmp c8
