#!/usr/bin/env bash
# Validation after the stack-limit change: borrow_gpu three times, the mixed and random suites,
# search_gpu, and knapsack's figures.
set -uo pipefail
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
export GTAP_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cat .gpu-bin/COMMIT
for i in 1 2 3; do
  echo "== borrow_gpu $i"; timeout -k 5 100 .gpu-bin/tests/borrow_gpu-* 2>&1 | grep -E "FAILED|test result|panicked at" | head -6
done
for t in mixed_gpu random_gpu search_gpu batch_gpu; do
  echo "== $t"; timeout -k 5 200 .gpu-bin/tests/$t-* 2>&1 | grep -E "FAILED|test result|panicked at" | head -6
done
echo "== knapsack"
timeout -k 5 150 .gpu-bin/examples/bench --runs 1 knapsack --n 52 --rayon-levels 16 2>&1 | grep -E "^\||nodes|median"
