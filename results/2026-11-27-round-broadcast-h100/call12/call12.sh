#!/usr/bin/env bash
# Call 12 (session 21), at .gpu-bin/COMMIT (f15ccb1's device code): the GPU suite
# (.gpu-exp/suite.sh: scripts/gpu-run.sh's settings, longest binaries first) until its
# deadline; call 13 runs the rest.
set -u
tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
. scripts/jit-cache.sh
R=/tmp/r12; mkdir -p $R
FIRST='blocks_gpu mixed_gpu block_programs_gpu resident_gpu batch_gpu storage_gpu programs_gpu random_gpu' DEADLINE=${DEADLINE:-470} bash .gpu-exp/suite.sh $R
grep -E "^== .* rc=|LEFT" $R/suite.log | tail -60
tar czf $OUT/r12.tgz -C /tmp r12
