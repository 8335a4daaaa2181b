#!/usr/bin/env bash
# Call 1 (session 22): the headline table at HEAD's device code (bundle of 87551ec) and ncu of
# nqueens(16), gtap's detached program and GTaP's, to see what bounds it.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
S=$OUT/c1; mkdir -p $S
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $S/gpu.txt
date -u +%FT%TZ >> $S/gpu.txt
RUNS=10 bash scripts/side-by-side.sh $S/sbs > $S/sbs.log 2>&1; echo "sbs rc=$?" >> $S/steps.txt
SAMPLING=10 bash scripts/ncu-source.sh $S/ncu nq16d gtap_nqueens_detached -- --gpu-only --runs 0 nqueens --n 16 --cutoff 8 --form detached 2> $S/ncu-gtap.err; echo "ncu gtap rc=$?" >> $S/steps.txt
ncu -c 1 --section LaunchStats --section WarpStateStats --section InstructionStats --section SchedulerStats --section ComputeWorkloadAnalysis --section Occupancy /tmp/gtap_anchor_build/nq 16 7 > $S/ncu/gtap-anchor-nq16.txt 2>&1; echo "ncu anchor rc=$?" >> $S/steps.txt
ncu -c 1 --section ComputeWorkloadAnalysis --section Occupancy .gpu-bin/examples/bench --gpu-only --runs 0 nqueens --n 16 --cutoff 8 --form detached > $S/ncu/nq16d-compute.txt 2>&1; echo "ncu gtap compute rc=$?" >> $S/steps.txt
cat $S/steps.txt
