#!/usr/bin/env bash
# Call 8 (session 21), at .gpu-bin/COMMIT: the README's headline table
# (scripts/side-by-side.sh: GTaP's anchor, gtap default and tuned, the CPU baselines, in one
# call), then the GPU suite's binaries call 7 had no time left for.
set -u
start=$(date +%s)
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/r8; mkdir -p $R
step() { echo "$1 at $(( $(date +%s) - start )) s" >> $R/steps.txt; }
xz -dk .gpu-exp/final.ptx.xz
ptxas -arch=sm_90 -v .gpu-exp/final.ptx -o /tmp/final.cubin 2>&1 | grep -B3 "Used .* registers" | grep -E "Compiling entry|Used" > $R/ptxas-final.txt; step ptxas
RUNS=10 bash scripts/side-by-side.sh $R/sbs > $R/sbs.log 2>&1; step "sbs rc=$?"
SKIP='blocks_gpu mixed_gpu block_programs_gpu resident_gpu batch_gpu batch_cpu block_programs_cpu blocks_cpu borrow_cpu borrow_gpu cpu_end_to_end cpu_handwritten errors_cpu gpu granularity_cpu gtap gtap_device gtap_examples gtap_host gtap_tests host_atomics intrinsics_gpu language_cpu language_gpu mixed_cpu profile_gpu programs_cpu programs_gpu ptx_text random_cpu random_gpu' \
  DEADLINE=540 bash .gpu-exp/suite.sh $R
step suite
grep -E "^== .* rc=|LEFT" $R/suite.log | tail -30
cat $R/steps.txt
tar czf $OUT/r8.tgz -C /tmp r8
