#!/usr/bin/env bash
# Call 4 (session 20), at .gpu-bin/COMMIT: knapsack instances up to 10^8+ branch-and-bound
# nodes on the GPU, and the CPU baselines (sequential, rayon on every core) on the largest
# sizes they finish in the time left (each CPU command under a timeout; one run each).
set -u
start=$(date +%s)
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
R=/tmp/c4; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt; nproc >> $R/gpu.txt
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
work() {
  $B --gpu-only --runs 3 --out $R/kn-gpu.csv knapsack --n 56,60,62,64 > $R/kn-gpu.md 2>&1; step "gpu rc=$?"
  timeout 140 $B --cpu-only --runs 0 --out $R/kn-cpu60.csv knapsack --n 60 > $R/kn-cpu60.md 2>&1; step "cpu 60 rc=$?"
  left=$(( 540 - ($(date +%s) - start) ))
  timeout $left $B --cpu-only --runs 0 --out $R/kn-cpu64.csv knapsack --n 64 > $R/kn-cpu64.md 2>&1; step "cpu 64 rc=$?"
}
work &
pid=$!
( sleep 560; pkill -f bench; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cat $R/steps.txt; cat $R/kn-gpu.md | grep -v "^|---" | tail -20
tar czf $OUT/c4.tgz -C /tmp c4
