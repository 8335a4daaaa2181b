#!/usr/bin/env bash
# Run 2: the mixed kernel with the block board; mergesort-mixed across register caps and leaves.
set -uo pipefail
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
export GTAP_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cat .gpu-bin/COMMIT
echo "== mixed_gpu"
timeout -k 5 150 .gpu-bin/tests/mixed_gpu-* 2>&1 | grep -E "^test |test result|panicked" 
B=.gpu-bin/examples/bench
echo "== mergesort-mixed"
for regs in none 128 80; do
  x=""; [ $regs != none ] && x="--max-registers $regs"
  timeout -k 5 100 $B --gpu-only --runs 5 --config-name regs-$regs $x sort --algo mergesort-mixed --n 1e6,1e7 2>&1 | grep -E "^\| mergesort|grid"
done
for leaf in 64 1024 4096; do
  timeout -k 5 60 $B --gpu-only --runs 5 --config-name regs-80 --max-registers 80 sort --algo mergesort-mixed --n 1e7 --cutoff $leaf 2>&1 | grep -E "^\| mergesort"
done
timeout -k 5 60 $B --gpu-only --runs 5 --config-name regs-80-part16k --max-registers 80 sort --algo mergesort-mixed --n 1e7 --part 16384 2>&1 | grep -E "^\| mergesort"
timeout -k 5 60 $B --gpu-only --runs 5 --config-name regs-80-bm64k --max-registers 80 sort --algo mergesort-mixed --n 1e7 --block-merge 65536 2>&1 | grep -E "^\| mergesort"
echo "== CPU baselines and the plain mergesort, 1e7"
timeout -k 5 200 $B --runs 3 sort --algo mergesort --n 1e7 2>&1 | grep -E "^\| mergesort"
