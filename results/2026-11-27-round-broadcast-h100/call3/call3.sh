#!/usr/bin/env bash
# Call 3 (session 21): A/B of variant A (one reconvergence after lane 0's take, open_round
# folded into it, a 4-shuffle broadcast) against base (afd7ca3, the bench's embedded PTX),
# same bench binary, with GTaP's anchor beside them (scripts/size-sweep.sh); the large
# programs A/B; ptxas -v of A; ncu of a one-warp fib(12) under A (does the slow path go?).
set -u
start=$(date +%s)
B=.gpu-exp/bench
R=/tmp/r3; mkdir -p $R/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-exp/COMMIT >> $R/gpu.txt
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
. scripts/jit-cache.sh
xz -dk .gpu-exp/a.ptx.xz
work() {
  ptxas -arch=sm_90 -v .gpu-exp/a.ptx -o /tmp/a.cubin > $R/ptxas-a.txt 2>&1; step "ptxas rc=$?"
  BENCH=$B FIB_NS=20,24,26,28,30,35,40 NQ_NS=8,10,12,13,14,16 RUNS=10 ANCHOR_RUNS=5 \
    CONFIGS="base=|a=--ptx .gpu-exp/a.ptx" GTAP_COMMIT=$(cat .gpu-exp/COMMIT) bash scripts/size-sweep.sh $R/sweep > $R/sweep.log 2>&1
  step "sweep rc=$?"
  for round in 1 2; do
    for v in base a; do
      p=(); [ $v = a ] && p=(--ptx .gpu-exp/a.ptx)
      $B --gpu-only --runs 5 "${p[@]}" --config-name $v --out $R/ab/epaq-$v-$round.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 > $R/ab/epaq-$v-$round.md 2>&1
      $B --gpu-only --runs 5 "${p[@]}" --config-name $v --out $R/ab/sort-$v-$round.csv sort --algo cilksort-mixed > $R/ab/sort-$v-$round.md 2>&1
      $B --gpu-only --runs 5 "${p[@]}" --config-name $v --out $R/ab/res-$v-$round.csv resident --samples 200 --latency-only > $R/ab/res-$v-$round.md 2>&1
      step "ab $v $round"
    done
  done
  S="--section LaunchStats --section WarpStateStats --section SourceCounters --section InstructionStats --warp-sampling-interval 0"
  timeout 120 ncu --kernel-name regex:'^gtap_fib$' -c 1 $S -o /tmp/ncu-fib-a $B --gpu-only --runs 0 --grid 1 --no-auto-granularity --ptx .gpu-exp/a.ptx fib --n 12 > $R/ncu-fib-a-run.txt 2>&1
  ncu -i /tmp/ncu-fib-a.ncu-rep --page details > $R/ncu-fib-a.txt 2>&1
  ncu -i /tmp/ncu-fib-a.ncu-rep --page source --csv --print-source sass | xz > $R/ncu-fib-a-sass.csv.xz
  step ncu
}
work &
pid=$!
( sleep 560; pkill -f bench; pkill -f ncu; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cat $R/steps.txt
tar czf $OUT/r3.tgz -C /tmp r3
