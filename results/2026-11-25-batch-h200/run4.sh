#!/usr/bin/env bash
# Run 4: run_batch on the GPU (tests and bench batch), the mixed kernel again, and the GPU
# suites the change touches.
set -uo pipefail
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
export GTAP_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cat .gpu-bin/COMMIT
for t in batch_gpu mixed_gpu programs_gpu blocks_gpu block_programs_gpu language_gpu random_gpu uts_gpu trap_gpu; do
  echo "== $t"
  timeout -k 5 200 .gpu-bin/tests/$t-* 2>&1 | grep -E "^test .*(FAILED|ok)$|test result|panicked" | grep -v "^test .* ok$" | head -8
done
B=.gpu-bin/examples/bench
echo "== bench batch"
timeout -k 5 200 $B --runs 3 batch --roots 100000 --loop-roots 2000 2>&1 | grep -E "^\||grid"
echo "== mergesort-mixed, defaults"
timeout -k 5 100 $B --gpu-only --runs 5 sort --algo mergesort-mixed --n 1e6,1e7 2>&1 | grep -E "^\| mergesort"
