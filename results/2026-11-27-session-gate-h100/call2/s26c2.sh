#!/usr/bin/env bash
# Session 26, call 2: the gate (9df201a). resident_gpu once (its two new tests), then looped
# with gpu-catch-hang.sh, then the GPU suite (the rest) until the deadline.
set -u
t0=$(date +%s)
R=/tmp/s26c2; rm -rf $R; mkdir -p $R
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT > $R/summary.txt
mkdir -p /tmp/gtap-cuda-cache && tar xzf .gpu-exp/jitcache.tgz -C /tmp/gtap-cuda-cache
. scripts/jit-cache.sh
export GTAP_REQUIRE_GPU=1
B=$(ls .gpu-bin/tests/resident_gpu-* | head -1)
timeout 400 $B > $R/once.log 2>&1; echo "once rc=$? at $(( $(date +%s) - t0 )) s" >> $R/summary.txt
bash scripts/gpu-catch-hang.sh $R/loop ${LOOP_S:-150} 30 $B > $R/loop.out 2>&1
echo "loop rc=$?: $(tail -1 $R/loop/summary.txt) at $(( $(date +%s) - t0 )) s" >> $R/summary.txt
tar czf $OUT/s26c2.tgz -C /tmp s26c2
left=$(( ${END:-540} - ($(date +%s) - t0) ))
env OUT=$R GTAP_SKIP=resident_gpu GTAP_FIRST="${FIRST:-}" GTAP_DEADLINE_S=$left bash scripts/gpu-run.sh > $R/gpu-run.out 2>&1
echo "suite rc=$? at $(( $(date +%s) - t0 )) s" >> $R/summary.txt
tail -4 $R/gpu-run.out >> $R/summary.txt
tar czf $OUT/s26c2.tgz -C /tmp s26c2
tar czf $OUT/jitcache.tgz -C "$CUDA_CACHE_PATH" .
cat $R/summary.txt
