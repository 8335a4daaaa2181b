#!/usr/bin/env bash
# Session 24, call 6: the GPU suite at the bundle's commit (main with the queue rule and
# ratio 4), the allocation-heavy and policy-sensitive binaries first.
set -u
rm -rf .gpu-bin/tests .gpu-bin/examples; tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
R=/tmp/s24c6; rm -rf $R; mkdir -p $R
. scripts/jit-cache.sh
FIRST="storage_gpu programs_gpu random_gpu language_gpu runtime_gpu uts_gpu blocks_gpu mixed_gpu" DEADLINE=480 bash .gpu-exp/suite.sh $R
tar czf $OUT/s24c6.tgz -C /tmp s24c6
