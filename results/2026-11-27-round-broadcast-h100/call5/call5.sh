#!/usr/bin/env bash
# Call 5 (session 21): why B slowed mergesort-mixed (9.0 -> 12.0 ms in call 4). Four PTX on
# one bench binary (B's host): base (afd7ca3), B (embedded), C1 (B + the barrier before the
# run restored), C2 (base + only the batch through shared memory; open_round and its barrier
# where they were). Two alternating rounds each: the mixed sorts, small fib and nqueens,
# fib(40), the EPAQ pair.
set -u
start=$(date +%s)
B=.gpu-exp/bench
R=/tmp/r5; mkdir -p $R/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-exp/COMMIT >> $R/gpu.txt
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
. scripts/jit-cache.sh
for f in base c1 c2; do xz -dk .gpu-exp/$f.ptx.xz; done
ptx() { case $1 in b) echo "";; *) echo "--ptx .gpu-exp/$1.ptx";; esac; }
work() {
  for round in 1 2; do
    for v in base b c1 c2; do
      read -ra p <<<"$(ptx $v)"
      $B --gpu-only --runs 5 "${p[@]}" --config-name $v --out $R/ab/sort-$v-$round.csv sort --algo mergesort-mixed,cilksort-mixed > $R/ab/sort-$v-$round.md 2>&1
      $B --gpu-only --runs 10 "${p[@]}" --config-name $v --out $R/ab/fib-$v-$round.csv fib --n 20,24,28,30,40 > $R/ab/fib-$v-$round.md 2>&1
      $B --gpu-only --runs 10 "${p[@]}" --config-name $v --out $R/ab/nq-$v-$round.csv nqueens --n 8,10,12,13 --cutoff 8 > $R/ab/nq-$v-$round.md 2>&1
      $B --gpu-only --runs 5 "${p[@]}" --config-name $v --out $R/ab/epaq-$v-$round.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 > $R/ab/epaq-$v-$round.md 2>&1
      step "ab $v $round"
    done
  done
}
work &
pid=$!
( sleep 570; pkill -f bench; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cat $R/steps.txt
tar czf $OUT/r5.tgz -C /tmp r5
