#!/usr/bin/env bash
# Session 17, call 4: the GPU suite at the bundle's commit.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
cat .gpu-bin/COMMIT | tee $OUT/commit.txt
date -u | tee $OUT/start.txt
GTAP_WATCHDOG_S=200 timeout 560 bash scripts/gpu-run.sh > /tmp/suite.log 2>&1
echo "suite rc=$?" >> /tmp/suite.log
date -u >> /tmp/suite.log
cp /tmp/suite.log $OUT/suite.log
