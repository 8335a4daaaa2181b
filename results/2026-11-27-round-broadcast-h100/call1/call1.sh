#!/usr/bin/env bash
# Call 1 (session 21): where a round's fixed cost goes on the critical path.
# (a) small runs on the default grid against one warp (--grid 1), to see whether idle warps
# slow the working one; (b) ncu source counters (SASS, stall reasons) of one-warp runs, where
# every sample is the critical path; (c) ptxas -v of the plain PTX: registers per kernel.
set -u
start=$(date +%s)
B=.gpu-exp/bench
R=/tmp/r1; mkdir -p $R/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-exp/COMMIT >> $R/gpu.txt
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
. scripts/jit-cache.sh
work() {
  xz -dk .gpu-exp/plain.ptx.xz
  ptxas -arch=sm_90 -v .gpu-exp/plain.ptx -o /tmp/plain.cubin > $R/ptxas.txt 2>&1; step "ptxas rc=$?"
  for g in default one; do
    grid=(); [ $g = one ] && grid=(--grid 1)
    for pol in on off; do
      p=(); [ $pol = off ] && p=(--no-auto-granularity)
      $B --gpu-only --runs 20 "${grid[@]}" "${p[@]}" --config-name $g-$pol --out $R/ab/fib-$g-$pol.csv fib --n 1,5,10,15,20 > $R/ab/fib-$g-$pol.md 2>&1
      $B --gpu-only --runs 20 "${grid[@]}" "${p[@]}" --config-name $g-$pol --out $R/ab/nq-$g-$pol.csv nqueens --n 8,10,12 --form detached,joined > $R/ab/nq-$g-$pol.md 2>&1
      step "ab $g $pol"
    done
  done
  S="--section LaunchStats --section WarpStateStats --section SourceCounters --section InstructionStats --section SchedulerStats"
  timeout 120 ncu --kernel-name regex:'^gtap_fib$' -c 1 $S -o /tmp/ncu-fib $B --gpu-only --runs 0 --grid 1 --no-auto-granularity fib --n 12 > $R/ncu-fib-run.txt 2>&1
  ncu -i /tmp/ncu-fib.ncu-rep --page details > $R/ncu-fib.txt 2>&1
  ncu -i /tmp/ncu-fib.ncu-rep --page source --csv --print-source sass | xz > $R/ncu-fib-sass.csv.xz
  step ncu-fib
  timeout 120 ncu --kernel-name regex:'^gtap_nqueens_detached$' -c 1 $S -o /tmp/ncu-nqd $B --gpu-only --runs 0 --grid 1 nqueens --n 10 --form detached > $R/ncu-nqd-run.txt 2>&1
  ncu -i /tmp/ncu-nqd.ncu-rep --page details > $R/ncu-nqd.txt 2>&1
  ncu -i /tmp/ncu-nqd.ncu-rep --page source --csv --print-source sass | xz > $R/ncu-nqd-sass.csv.xz
  step ncu-nqd
}
work &
pid=$!
( sleep 540; pkill -f bench; pkill -f ncu; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cat $R/steps.txt
tar czf $OUT/r1.tgz -C /tmp r1
