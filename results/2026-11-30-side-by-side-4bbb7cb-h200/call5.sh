#!/usr/bin/env bash
# Session 48, call 5: the headline side by side with GTaP and the CPU baselines at the
# bundle's commit (4bbb7cb), one run.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT; nvidia-smi -L; date -u
RUNS=5 ANCHOR_RUNS=3 bash scripts/side-by-side.sh /tmp/sbs > /tmp/sbs-console.log 2>&1; echo "sbs rc=$?"; date -u
cp /tmp/sbs-console.log /tmp/sbs/console.log
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; date -u; cat .gpu-bin/COMMIT; } > /tmp/sbs/gpu.txt
tar czf $OUT/sbs.tgz -C /tmp sbs
exit 0
