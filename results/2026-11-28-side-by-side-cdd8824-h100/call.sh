#!/usr/bin/env bash
# Session 29 call 2: the side-by-side at HEAD (cdd8824), the soak with the register cap, the size sweep.
set -u
xz -dc .gpu-exp/bench-main.xz > /tmp/bench && chmod +x /tmp/bench
xz -dc .gpu-exp/gtap-plot.xz > /tmp/gtap-plot && chmod +x /tmp/gtap-plot
xz -dc .gpu-exp/soak_gpu.xz > /tmp/soak_gpu && chmod +x /tmp/soak_gpu
date -u
BENCH=/tmp/bench PLOT=/tmp/gtap-plot GTAP_COMMIT=cdd8824 bash scripts/side-by-side.sh $OUT/sbs; echo "side-by-side rc=$?"
date -u
. scripts/jit-cache.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/soak.log
GTAP_REQUIRE_GPU=1 GTAP_SOAK_SECS=90 timeout --kill-after=10 180 /tmp/soak_gpu --nocapture >> $OUT/soak.log 2>&1
echo "soak rc=$?" | tee -a $OUT/soak.log
grep -E '^(soak:|test result)' $OUT/soak.log; echo "ERROR lines: $(grep -c '^ERROR' $OUT/soak.log)"
date -u
BENCH=/tmp/bench GTAP_COMMIT=cdd8824 bash scripts/size-sweep.sh $OUT/sweep; echo "sweep rc=$?"
date -u
cd $OUT && tar czf s2.tgz sbs sweep soak.log && rm -rf sbs sweep
