#!/usr/bin/env bash
# Call 3 (session 20), at .gpu-bin/COMMIT: A/B of the block sorts against the base PTX
# (b2b8732, .gpu-exp/base.ptx.xz) with the same bench binary, two alternating rounds; resident
# latency (traced) and throughput; batch (call 2 had these with misplaced arguments).
set -u
start=$(date +%s)
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dk .gpu-exp/base.ptx.xz
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
R=/tmp/c3; mkdir -p $R/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
work() {
  for round in 1 2; do
    for v in new base; do
      P=""; [ $v = base ] && P="--ptx .gpu-exp/base.ptx"
      $B --gpu-only --runs 5 $P --config-name $v --out $R/ab/sort-$v-$round.csv sort --algo cilksort-mixed,mergesort-mixed > $R/ab/sort-$v-$round.md 2>&1
      step "ab $v $round rc=$?"
    done
  done
  $B --gpu-only --runs 3 --out $R/resident-latency.csv resident --samples 300 --latency-only --trace > $R/resident-latency.md 2>&1; step "resident latency rc=$?"
  $B --gpu-only --runs 3 --out $R/resident.csv resident --loop-roots 1000 --samples 300 > $R/resident.md 2>&1; step "resident rc=$?"
  $B --gpu-only --runs 3 --out $R/batch.csv batch --loop-roots 1000 > $R/batch.md 2>&1; step "batch rc=$?"
}
work &
pid=$!
( sleep 560; pkill -f bench; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cat $R/steps.txt
tar czf $OUT/c3.tgz -C /tmp c3
