#!/usr/bin/env bash
# Call 2 (session 20), at .gpu-bin/COMMIT: A/B of the block sorts and the headline thread
# programs against the base PTX (b2b8732, .gpu-exp/base.ptx.xz) with the same bench binary,
# two alternating rounds; resident latency (traced) and throughput; batch; then what call 1
# left of the suite (fib, smoke) and language_gpu with its stream-order test fixed.
set -u
start=$(date +%s)
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dk .gpu-exp/base.ptx.xz
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
R=/tmp/c2; mkdir -p $R/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
work() {
  for round in 1 2; do
    for v in new base; do
      P=""; [ $v = base ] && P="--ptx .gpu-exp/base.ptx"
      $B --gpu-only --runs 5 $P --config-name $v --out $R/ab/sort-$v-$round.csv sort --algo cilksort-mixed mergesort-mixed > $R/ab/sort-$v-$round.md 2>&1
      $B --gpu-only --runs 5 $P --config-name $v --out $R/ab/fib-$v-$round.csv fib --n 40 > $R/ab/fib-$v-$round.md 2>&1
      $B --gpu-only --runs 5 $P --config-name $v --out $R/ab/nq-$v-$round.csv nqueens --n 16 > $R/ab/nq-$v-$round.md 2>&1
      step "ab $v $round"
    done
  done
  $B --gpu-only --runs 3 --samples 300 --latency-only --trace --out $R/resident-latency.csv resident > $R/resident-latency.md 2>&1; step "resident latency rc=$?"
  $B --gpu-only --runs 3 --loop-roots 1000 --samples 300 --out $R/resident.csv resident > $R/resident.md 2>&1; step "resident rc=$?"
  $B --gpu-only --runs 3 --loop-roots 1000 --out $R/batch.csv batch > $R/batch.md 2>&1; step "batch rc=$?"
  export GTAP_REQUIRE_GPU=1
  for exe in .gpu-exp/language_gpu .gpu-bin/examples/fib .gpu-bin/examples/smoke; do
    echo "== $exe" >> $R/suite.log
    timeout --kill-after=10 150 $exe >> $R/suite.log 2>&1; step "$(basename $exe) rc=$?"
  done
}
work &
pid=$!
( sleep 560; pkill -f bench; pkill -f _gpu-; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cat $R/steps.txt
tar czf $OUT/c2.tgz -C /tmp c2
