#!/usr/bin/env bash
# Session 25, call 4: the GPU suite (scripts/gpu-run.sh, resident_gpu first) at the fix, then
# resident_gpu over and over until $END s have passed; stops at the first run that fails.
set -u
t0=$(date +%s)
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
R=/tmp/s25c4; rm -rf $R; mkdir -p $R
cat .gpu-bin/COMMIT > $R/summary.txt
env OUT=$R GTAP_FIRST="${FIRST:-resident_gpu}" GTAP_ONLY="${ONLY:-}" GTAP_DEADLINE_S=${DEADLINE:-440} bash scripts/gpu-run.sh > $R/gpu-run.out 2>&1
echo "suite rc=$? at $(( $(date +%s) - t0 )) s" >> $R/summary.txt
tar czf $OUT/s25c4.tgz -C /tmp s25c4
. scripts/jit-cache.sh
export GTAP_REQUIRE_GPU=1
B=$(ls .gpu-bin/tests/resident_gpu-* | head -1)
i=0
while [ $(( $(date +%s) - t0 )) -lt ${END:-560} ]; do
  i=$((i+1))
  timeout -k 5 30 $B > $R/run.log 2>&1; rc=$?
  [ $rc -ne 0 ] && { echo "loop $i rc=$rc" >> $R/summary.txt; cp $R/run.log $R/fail-$i.log; break; }
done
echo "loop runs=$i (the last failed if a line above says so) at $(( $(date +%s) - t0 )) s" >> $R/summary.txt
tar czf $OUT/s25c4.tgz -C /tmp s25c4
