#!/usr/bin/env bash
# Session 26, call 7: the whole GPU suite at the final commit, with the JIT cache of call 2
# carried (GTAP_JIT_CACHE_TAR). Part 1 until DEADLINE; the rest follows in the next call.
set -u
t0=$(date +%s)
R=/tmp/s26c7; rm -rf $R; mkdir -p $R
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT > $R/summary.txt
export GTAP_JIT_CACHE_TAR=.gpu-exp/jitcache.txz
env OUT=$R GTAP_FIRST="resident_gpu stuck_gpu" GTAP_ONLY="${ONLY:-}" GTAP_DEADLINE_S=${DEADLINE:-480} bash scripts/gpu-run.sh > $R/gpu-run.out 2>&1
echo "suite rc=$? at $(( $(date +%s) - t0 )) s" >> $R/summary.txt
tail -4 $R/gpu-run.out >> $R/summary.txt
tar czf $OUT/s26c7.tgz -C /tmp s26c7
tar cJf $OUT/jitcache.txz -C /tmp/gtap-cuda-cache . 2>/dev/null || true
cat $R/summary.txt
