#!/usr/bin/env bash
# Call 3 (session 19), at 6487294: A/B of nqueens' sequential count (lockstep, embedded PTX;
# branching, .gpu-exp/branching.ptx: the same commit with count_seq -> count_branching on the
# GPU), two alternating rounds; then ncu of nqueens(16) both forms; programs_gpu.
set -u
start=$(date +%s)
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
xz -dk .gpu-exp/branching.ptx.xz
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
R=/tmp/r3; mkdir -p $R/ab
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
run_all() {
  for round in 1 2; do
    for v in lockstep branching; do
      ptx=(); [ $v = branching ] && ptx=(--ptx .gpu-exp/branching.ptx)
      $B --gpu-only --runs 10 "${ptx[@]}" --config-name $v --out $R/ab/nq-$v-$round.csv nqueens --n 12,13,14,15,16 --cutoff 8 > $R/ab/nq-$v-$round.md 2> $R/ab/nq-$v-$round.log
      $B --gpu-only --runs 5 "${ptx[@]}" --config-name $v --out $R/ab/epaq-$v-$round.csv epaq nqueens --n 16 --cutoff 8 > $R/ab/epaq-$v-$round.md 2> $R/ab/epaq-$v-$round.log
      step "ab $v $round"
    done
  done
  S="--section LaunchStats --section Occupancy --section WarpStateStats --section SpeedOfLight --section SourceCounters --section InstructionStats"
  for f in joined detached; do
    k=gtap_nqueens; [ $f = detached ] && k=gtap_nqueens_detached
    timeout 150 ncu --kernel-name regex:"^$k\$" -c 1 $S -o /tmp/ncu-$f $B --gpu-only --runs 0 nqueens --n 16 --cutoff 8 --form $f >$R/ncu-$f-run.txt 2>&1
    ncu -i /tmp/ncu-$f.ncu-rep --page details >$R/ncu-$f.txt 2>&1
    ncu -i /tmp/ncu-$f.ncu-rep --page source --csv --print-source sass | xz > $R/ncu-$f-sass.csv.xz
  done
  step ncu
  t=$(ls .gpu-bin/tests/programs_gpu-* | head -1)
  timeout 150 $t > $R/programs_gpu.log 2>&1; step "programs_gpu rc=$?"
}
run_all &
pid=$!
( sleep 560; pkill -f bench; pkill -f ncu; pkill -f programs_gpu; kill $pid 2>/dev/null ) &
killer=$!
wait $pid
kill $killer 2>/dev/null
cat $R/steps.txt
tar czf $OUT/r3.tgz -C /tmp r3
