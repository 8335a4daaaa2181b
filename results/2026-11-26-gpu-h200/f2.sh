#!/usr/bin/env bash
# The final figures: side by side with GTaP (and the CPU baselines), the search programs, and
# the README's first program on the GPU.
set -uo pipefail
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/f2.log
cat .gpu-bin/COMMIT | tee -a $OUT/f2.log
echo "== first program (README), the template crate built here" | tee -a $OUT/f2.log
./.gpu-bin/my-tasks 2>&1 | tee -a $OUT/f2.log
./.gpu-bin/my-tasks 35 2>&1 | tee -a $OUT/f2.log
GTAP_BACKEND=cpu ./.gpu-bin/my-tasks 2>&1 | tee -a $OUT/f2.log
B=.gpu-bin/examples/bench
echo "== knapsack, floorplan" | tee -a $OUT/f2.log
timeout -k 5 150 $B --runs 3 knapsack --n 52,56 --rayon-levels 16 2>&1 | grep -E "^\||nodes" | tee -a $OUT/f2.log
timeout -k 5 60 $B --runs 3 floorplan --cells 16,18 2>&1 | grep -E "^\||nodes" | tee -a $OUT/f2.log
echo "== side by side" | tee -a $OUT/f2.log
RUNS=5 ANCHOR_RUNS=3 timeout -k 5 330 bash scripts/side-by-side.sh $OUT/sbs > $OUT/sbs-stdout.log 2>&1
echo "side-by-side rc $?" | tee -a $OUT/f2.log
tar -C $OUT -czf $OUT/sbs.tgz sbs && rm -rf $OUT/sbs
