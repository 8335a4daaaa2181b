#!/usr/bin/env bash
# Call 6 (session 21): D = B with the policy clock stamped as the lanes start (280b10c), against
# base (afd7ca3) and C2 (base + only the batch through shared memory), on B's bench binary.
# Two alternating rounds: the mixed sorts, small fib and nqueens, fib(40), the EPAQ pair.
set -u
start=$(date +%s)
B=.gpu-exp/bench
R=/tmp/r6; mkdir -p $R/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-exp/COMMIT >> $R/gpu.txt
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
. scripts/jit-cache.sh
for f in base c2 d; do xz -dk .gpu-exp/$f.ptx.xz; done
ptx() { case $1 in b) echo "";; *) echo "--ptx .gpu-exp/$1.ptx";; esac; }
work() {
  for round in 1 2; do
    for v in base c2 d; do
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
tar czf $OUT/r6.tgz -C /tmp r6
