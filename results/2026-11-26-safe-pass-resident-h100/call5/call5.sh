#!/usr/bin/env bash
# Call 5 (session 20), at .gpu-bin/COMMIT: knapsack at 62 and 64 items, GPU and CPU baselines
# (sequential, rayon on every core) in one bench run, 3 runs each.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/c5; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt; nproc >> $R/gpu.txt
timeout 540 .gpu-bin/examples/bench --runs 3 --out $R/kn.csv knapsack --n 62,64 > $R/kn.md 2>&1
echo "rc=$?" >> $R/kn.md
grep -v "^|---" $R/kn.md | tail -12
tar czf $OUT/c5.tgz -C /tmp c5
