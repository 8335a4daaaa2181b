#!/usr/bin/env bash
# Call 11 (session 21): R (a refill walks at most 16 records of a remote free list while a
# quarter of the slab is unused; the rest waits in WarpShared::remote_rest) against base
# (0f8e408's bundle), each bench with its own embedded PTX (R's host lays out 64 more bytes of
# block-runtime shared memory), two alternating rounds; GTaP's anchor; per-warp profiles of
# detached nqueens(12) and (13) under both, for the close phases.
set -u
start=$(date +%s)
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin; xz -dk .gpu-exp/bench-r.xz; chmod +x .gpu-exp/bench-r
. scripts/jit-cache.sh
R=/tmp/r11; mkdir -p $R/ab $R/prof
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
bin() { case $1 in base) echo .gpu-bin/examples/bench;; r) echo .gpu-exp/bench-r;; esac; }
work() {
  RUNS=5 bash .anchor-gtap/run.sh > $R/anchor.csv 2> $R/anchor.log; step "anchor rc=$?"
  for round in 1 2; do
    for v in base r; do
      B=$(bin $v)
      $B --gpu-only --runs 10 --config-name $v --out $R/ab/nq-$v-$round.csv nqueens --n 12,13,14,16 --cutoff 8 > $R/ab/nq-$v-$round.md 2>&1
      $B --gpu-only --runs 10 --config-name $v --out $R/ab/fib-$v-$round.csv fib --n 20,30,40 > $R/ab/fib-$v-$round.md 2>&1
      $B --gpu-only --runs 5 --config-name $v --out $R/ab/epaq-$v-$round.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 > $R/ab/epaq-$v-$round.md 2>&1
      $B --gpu-only --runs 5 --config-name $v --out $R/ab/sort-$v-$round.csv sort --algo mergesort-mixed,cilksort-mixed > $R/ab/sort-$v-$round.md 2>&1
      step "ab $v $round"
    done
  done
  for v in base r; do
    B=$(bin $v)
    timeout 120 $B --runs 1 --profile $R/prof/$v nqueens --n 12,13 --cutoff 8 --form detached > $R/prof/$v.md 2>&1
    find $R/prof/$v -name trace.json -delete; find $R/prof/$v -name timeline.csv -delete
    for f in $(find $R/prof/$v -name round_times.csv); do xz $f; done
    step "prof $v"
  done
}
work &
pid=$!
( sleep 560; pkill -f bench; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cat $R/steps.txt
tar czf $OUT/r11.tgz -C /tmp r11
