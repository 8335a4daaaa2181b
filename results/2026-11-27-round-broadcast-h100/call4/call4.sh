#!/usr/bin/env bash
# Call 4 (session 21): A/B/C of base (afd7ca3's PTX), B (lane 0's batch through shared memory
# after one reconvergence, open_round folded into the take; the bench binary's own PTX) and
# B2 (B with idle warps sleeping at most 1 us instead of 4), one bench binary (B's host),
# GTaP's anchor beside them (scripts/size-sweep.sh); large programs; ptxas -v; ncu of a
# one-warp fib(12) under B.
set -u
start=$(date +%s)
B=.gpu-exp/bench
R=/tmp/r4; mkdir -p $R/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-exp/COMMIT >> $R/gpu.txt
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
. scripts/jit-cache.sh
for f in base b b2; do [ -f .gpu-exp/$f.ptx.xz ] && xz -dk .gpu-exp/$f.ptx.xz; done
ptx() { case $1 in base) echo "--ptx .gpu-exp/base.ptx";; b2) echo "--ptx .gpu-exp/b2.ptx";; *) echo "";; esac; }
work() {
  ptxas -arch=sm_90 -v .gpu-exp/b.ptx -o /tmp/b.cubin > $R/ptxas-b.txt 2>&1; step "ptxas rc=$?"
  BENCH=$B FIB_NS=20,24,26,28,30,35,40 NQ_NS=8,10,12,13,14,16 RUNS=10 ANCHOR_RUNS=5 \
    CONFIGS="base=$(ptx base)|b=|b2=$(ptx b2)" GTAP_COMMIT="$(cat .gpu-exp/COMMIT)" bash scripts/size-sweep.sh $R/sweep > $R/sweep.log 2>&1
  step "sweep rc=$?"
  for round in 1 2; do
    for v in base b b2; do
      read -ra p <<<"$(ptx $v)"
      $B --gpu-only --runs 5 "${p[@]}" --config-name $v --out $R/ab/epaq-$v-$round.csv epaq fib --n 40 --cutoff 10 --leaf calls --queues 1,3 > $R/ab/epaq-$v-$round.md 2>&1
      $B --gpu-only --runs 5 "${p[@]}" --config-name $v --out $R/ab/sort-$v-$round.csv sort --algo cilksort-mixed,mergesort-mixed > $R/ab/sort-$v-$round.md 2>&1
      $B --gpu-only --runs 5 "${p[@]}" --config-name $v --out $R/ab/res-$v-$round.csv resident --samples 200 --latency-only > $R/ab/res-$v-$round.md 2>&1
      step "ab $v $round"
    done
  done
  S="--section LaunchStats --section WarpStateStats --section SourceCounters --section InstructionStats --warp-sampling-interval 0"
  timeout 120 ncu --kernel-name regex:'^gtap_fib$' -c 1 $S -o /tmp/ncu-fib-b $B --gpu-only --runs 0 --grid 1 --no-auto-granularity fib --n 12 > $R/ncu-fib-b-run.txt 2>&1
  ncu -i /tmp/ncu-fib-b.ncu-rep --page details > $R/ncu-fib-b.txt 2>&1
  ncu -i /tmp/ncu-fib-b.ncu-rep --page source --csv --print-source sass | xz > $R/ncu-fib-b-sass.csv.xz
  step ncu
}
work &
pid=$!
( sleep 570; pkill -f bench; pkill -f ncu; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cat $R/steps.txt
tar czf $OUT/r4.tgz -C /tmp r4
