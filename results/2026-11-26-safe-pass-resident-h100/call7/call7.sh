#!/usr/bin/env bash
# Call 7 (session 20), at .gpu-bin/COMMIT: the GPU tests of block tasks after the last change
# to their device code (TeamMut::agree_key), and cilksort-mixed once more.
set -u
start=$(date +%s)
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/c7; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
export GTAP_REQUIRE_GPU=1
for t in blocks_gpu mixed_gpu; do
  x=$(ls .gpu-bin/tests/$t-* | head -1)
  timeout 240 $x > $R/$t.log 2>&1; echo "$t rc=$? at $(( $(date +%s) - start )) s" >> $R/steps.txt
done
timeout 60 .gpu-bin/examples/bench --gpu-only --runs 5 --out $R/sort.csv sort --algo cilksort-mixed > $R/sort.md 2>&1; echo "sort rc=$?" >> $R/steps.txt
cat $R/steps.txt; grep -h "test result" $R/*.log; grep "^| sort\|^| cilk" $R/sort.md
tar czf $OUT/c7.tgz -C /tmp c7
