#!/usr/bin/env bash
# Run 1 (the first mixed kernel, before the block board): its tests, the mixed mergesort, an
# A/B of the plain kernels against 0e17827's PTX (base-examples.ptx, carried beside the bundle).
set -uo pipefail
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
for f in .gpu-bin/*.ptx.xz; do xz -dk -f "$f"; done
. scripts/jit-cache.sh
export GTAP_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== registers (ptxas -arch=sm_90 -v)"
for v in base new; do
  ptxas -arch=sm_90 -v .gpu-bin/$v-examples.ptx -o /tmp/$v.cubin 2>&1 | grep -E "Compiling entry|Used" | paste - - | grep -E "gtap_(fib|nqueens|cilksort|mergesort|fib_epaq|bfs|spmv|mergesort_mixed)'" | sed -E "s/.*entry function '([a-z_]+)'.*Used ([0-9]+) registers.*/$v \1 \2/"
done
ptxas -arch=sm_90 -v .gpu-bin/new-tests.ptx -o /tmp/t.cubin 2>&1 | grep -E "Compiling entry|Used" | paste - - | grep "gtap_mixed'" | sed -E "s/.*Used ([0-9]+) registers.*/new gtap_mixed \1/"
echo "== mixed_gpu"
timeout -k 5 150 .gpu-bin/tests/mixed_gpu-* 2>&1 | tail -25
B=.gpu-bin/examples/bench
echo "== bench mergesort"
timeout -k 5 150 $B --gpu-only --runs 5 sort --algo mergesort-mixed --n 1e6,1e7 2>&1 | tail -8
echo "== A/B fib nqueens"
for p in new base; do
  x=""; [ $p = base ] && x="--ptx .gpu-bin/base-examples.ptx"
  timeout -k 5 120 $B --gpu-only --runs 5 --config-name $p $x fib --n 40 2>&1 | grep "^|" | tail -2
  timeout -k 5 120 $B --gpu-only --runs 5 --config-name $p $x nqueens --n 16 2>&1 | grep "^|" | tail -2
done
echo "== other GPU suites"
for t in blocks_gpu block_programs_gpu programs_gpu language_gpu random_gpu; do
  timeout -k 5 120 .gpu-bin/tests/$t-* 2>&1 | grep -E "test result|FAILED|panicked" | head -5
done
