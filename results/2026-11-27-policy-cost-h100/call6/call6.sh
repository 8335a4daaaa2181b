#!/usr/bin/env bash
# Call 6 (session 22), at .gpu-bin/COMMIT (9119548): the whole GPU suite (.gpu-exp/suite.sh:
# scripts/gpu-run.sh's settings, the allocation-heavy binaries first), then the fib and smoke
# examples (the suite's last two), until its deadline.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/c6; rm -rf $R; mkdir -p $R
FIRST='blocks_gpu mixed_gpu block_programs_gpu resident_gpu batch_gpu storage_gpu programs_gpu random_gpu' DEADLINE=${DEADLINE:-540} bash .gpu-exp/suite.sh $R
grep -E "^== .* rc=|LEFT" $R/suite.log | grep -v "rc=0 " | tail -20
grep -c "rc=0 " $R/suite.log
tar czf $OUT/c6.tgz -C /tmp c6
