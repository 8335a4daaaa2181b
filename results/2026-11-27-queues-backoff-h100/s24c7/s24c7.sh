#!/usr/bin/env bash
# Session 24, call 7: the rest of the suite (call 6 ran the 8 longest), then the side-by-side.
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
R=/tmp/s24c7; rm -rf $R; mkdir -p $R
. scripts/jit-cache.sh
SKIP="storage_gpu programs_gpu random_gpu language_gpu runtime_gpu uts_gpu blocks_gpu mixed_gpu" DEADLINE=200 bash .gpu-exp/suite.sh $R
tar czf $OUT/s24c7.tgz -C /tmp s24c7
GTAP_COMMIT=1d56f84 bash scripts/side-by-side.sh $R/sbs > $R/sbs.out 2>&1
tar czf $OUT/s24c7.tgz -C /tmp s24c7
