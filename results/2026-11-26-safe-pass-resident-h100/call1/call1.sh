#!/usr/bin/env bash
# Call 1 (session 20): the GPU suite at .gpu-bin/COMMIT, first part (suite.sh stops starting
# binaries after 470 s and lists the rest).
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/c1; mkdir -p $R
FIRST='blocks_gpu mixed_gpu block_programs_gpu resident_gpu batch_gpu' bash .gpu-exp/suite.sh $R
grep -E "^== .* rc=|LEFT|test result" $R/suite.log | tail -80
tar czf $OUT/c1.tgz -C /tmp c1
