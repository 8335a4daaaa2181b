#!/usr/bin/env bash
# Session 29 call 6: the GPU tests of the programs with sequential versions, at the unrolled change.
set -u
mkdir -p /tmp/gb && tar -xJf .gpu-exp/tests.tar.xz -C /tmp/gb
GTAP_BIN=/tmp/gb GTAP_DEADLINE_S=330 GTAP_WATCHDOG_S=200 GTAP_FIRST="programs_gpu random_gpu uts_gpu" bash scripts/gpu-run.sh
echo "rc=$?"
grep -E "^(test result|FAILED|==)|panicked" $OUT/gpu-run.log | head -60
