#!/usr/bin/env bash
# Call 7 (session 21), at .gpu-bin/COMMIT (the batch through shared memory): ptxas -v of the
# plain PTX, ncu of a one-warp fib(12) (every spawn a task), then the whole GPU suite
# (.gpu-exp/suite.sh: scripts/gpu-run.sh's settings, longest binaries first).
set -u
start=$(date +%s)
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
B=.gpu-bin/examples/bench
R=/tmp/r7; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat .gpu-bin/COMMIT >> $R/gpu.txt
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
xz -dk .gpu-exp/final.ptx.xz
ptxas -arch=sm_90 -v .gpu-exp/final.ptx -o /tmp/final.cubin 2>&1 | grep -B2 "Used .* registers" | grep -E "Compiling entry|Used|stack frame" > $R/ptxas-final.txt; step ptxas
S="--section LaunchStats --section WarpStateStats --section SourceCounters --section InstructionStats --warp-sampling-interval 0"
timeout 120 ncu --kernel-name regex:'^gtap_fib$' -c 1 $S -o /tmp/ncu-fib-final $B --gpu-only --runs 0 --grid 1 --no-auto-granularity fib --n 12 > $R/ncu-fib-final-run.txt 2>&1
ncu -i /tmp/ncu-fib-final.ncu-rep --page details > $R/ncu-fib-final.txt 2>&1
ncu -i /tmp/ncu-fib-final.ncu-rep --page source --csv --print-source sass | xz > $R/ncu-fib-final-sass.csv.xz
step ncu
FIRST='blocks_gpu mixed_gpu block_programs_gpu resident_gpu batch_gpu' DEADLINE=${DEADLINE:-480} bash .gpu-exp/suite.sh $R
step suite
grep -E "^== .* rc=|LEFT" $R/suite.log | tail -60
cat $R/steps.txt
tar czf $OUT/r7.tgz -C /tmp r7
