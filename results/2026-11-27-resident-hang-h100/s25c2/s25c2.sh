#!/usr/bin/env bash
# Session 25, call 2: resident_gpu over and over (parallel test threads, as the suite runs
# it), to catch the rare hang of session 24's call 7; stops at the first run that fails.
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
R=/tmp/s25c2; rm -rf $R; mkdir -p $R
. scripts/jit-cache.sh
export GTAP_REQUIRE_GPU=1
B=$(ls .gpu-bin/tests/resident_gpu-* | head -1)
end=$(( $(date +%s) + ${SECS:-300} ))
i=0
while [ $(date +%s) -lt $end ]; do
  i=$((i+1))
  timeout -k 5 ${T:-40} $B > $R/run.log 2>&1; rc=$?
  echo "$i rc=$rc" >> $R/summary.txt
  if [ $rc -ne 0 ]; then cp $R/run.log $R/fail-$i.log; nvidia-smi > $R/fail-$i.smi 2>&1; break; fi
done
echo "runs=$i" >> $R/summary.txt
tar czf $OUT/s25c2.tgz -C /tmp s25c2
