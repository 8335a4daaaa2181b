#!/usr/bin/env bash
# Session 25, call 5: a resident_gpu built with step prints and a same-kernel variant
# (diag_same_kernel); the new test in-process with cuda-gdb stacks if it hangs; then the
# binary (less that test) over and over until $END s.
set -u
t0=$(date +%s)
R=/tmp/s25c5; rm -rf $R; mkdir -p $R
. scripts/jit-cache.sh
export GTAP_REQUIRE_GPU=1
xz -dc .gpu-exp/bin/resident_diag.xz > /tmp/rd && chmod +x /tmp/rd; B=/tmp/rd
timeout 150 $B diag_same_kernel --exact --nocapture > $R/same.log 2>&1; echo "same rc=$? at $(( $(date +%s) - t0 )) s" >> $R/summary.txt
GTAP_TEST_CHILD=1 $B a_session_holds_up_no_other_runtime --exact --nocapture > $R/diff.log 2>&1 & pid=$!
t=0; while kill -0 $pid 2>/dev/null && [ $t -lt 200 ]; do sleep 0.1; t=$((t+1)); done
if kill -0 $pid 2>/dev/null; then
  echo "diff HUNG at $(( $(date +%s) - t0 )) s" >> $R/summary.txt
  timeout 60 /usr/local/cuda/bin/cuda-gdb -p $pid -batch -ex "set pagination off" -ex "thread apply all bt 25" -ex "info cuda kernels" > $R/diff-cudagdb.txt 2>&1
  kill -9 $pid; wait $pid 2>/dev/null
else wait $pid; echo "diff rc=$? at $(( $(date +%s) - t0 )) s" >> $R/summary.txt; fi
tar czf $OUT/s25c5.tgz -C /tmp s25c5
i=0
while [ $(( $(date +%s) - t0 )) -lt ${END:-270} ]; do
  i=$((i+1))
  timeout -k 5 30 $B --skip a_session_holds_up > $R/run.log 2>&1; rc=$?
  [ $rc -ne 0 ] && { echo "loop $i rc=$rc" >> $R/summary.txt; cp $R/run.log $R/fail-$i.log; break; }
done
echo "loop runs=$i at $(( $(date +%s) - t0 )) s" >> $R/summary.txt
tar czf $OUT/s25c5.tgz -C /tmp s25c5
