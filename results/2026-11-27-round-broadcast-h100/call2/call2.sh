#!/usr/bin/env bash
# Call 2 (session 21): ncu source counters with the finest warp sampling (every 32 cycles) of
# one-warp runs, so that a round's stalls have enough samples to place: fib(12) with every
# spawn a task, detached nqueens(10), joined nqueens(10).
set -u
start=$(date +%s)
B=.gpu-exp/bench
R=/tmp/r2; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-exp/COMMIT >> $R/gpu.txt
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
. scripts/jit-cache.sh
S="--section LaunchStats --section WarpStateStats --section SourceCounters --section InstructionStats --section SchedulerStats --warp-sampling-interval 0"
prof() { # name kernel args...
  local n=$1 k=$2; shift 2
  timeout 150 ncu --kernel-name regex:"^$k\$" -c 1 $S -o /tmp/ncu-$n $B --gpu-only --runs 0 --grid 1 "$@" > $R/ncu-$n-run.txt 2>&1
  ncu -i /tmp/ncu-$n.ncu-rep --page details > $R/ncu-$n.txt 2>&1
  ncu -i /tmp/ncu-$n.ncu-rep --page source --csv --print-source sass | xz > $R/ncu-$n-sass.csv.xz
  step "ncu $n"
}
work() {
  prof fib gtap_fib --no-auto-granularity fib --n 12
  prof nqd gtap_nqueens_detached nqueens --n 10 --form detached
  prof nqj gtap_nqueens nqueens --n 10 --form joined
}
work &
pid=$!
( sleep 500; pkill -f bench; pkill -f ncu; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cat $R/steps.txt
tar czf $OUT/r2.tgz -C /tmp r2
