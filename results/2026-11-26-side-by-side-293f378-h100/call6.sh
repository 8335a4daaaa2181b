#!/usr/bin/env bash
# Call 6 (session 19): the side-by-side record at the bundle's commit (README's headline
# table), then programs_gpu at that commit.
set -u
start=$(date +%s)
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/r6; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
run_all() {
  RUNS=10 bash scripts/side-by-side.sh $R/sbs > $R/sbs.log 2>&1
  step "sbs rc=$?"
  x=$(ls .gpu-bin/tests/programs_gpu-* | head -1)
  GTAP_REQUIRE_GPU=1 timeout 140 $x > $R/programs_gpu.log 2>&1; step "programs_gpu rc=$?"
}
run_all &
pid=$!
( sleep 565; pkill -f bench; pkill -f _gpu-; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cat $R/steps.txt
tar czf $OUT/r6.tgz -C /tmp r6
