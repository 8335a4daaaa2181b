#!/usr/bin/env bash
# Session 26, call 1: (a) resident_gpu looped in 4 parallel loops with gpu-catch-hang.sh
# (confirms d54e859's fix of the one-in-110 deadlock); (b) the session-25 diagnostic binary
# (d54e859 + diag.patch): a second runtime beside an open session, step prints and cuda-gdb
# stacks; (c) the JIT cache comes back for later calls.
set -u
t0=$(date +%s)
R=/tmp/s26c1; rm -rf $R; mkdir -p $R
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
cat .gpu-bin/COMMIT > $R/summary.txt
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >> $R/summary.txt
. scripts/jit-cache.sh
export GTAP_REQUIRE_GPU=1
B=$(ls .gpu-bin/tests/resident_gpu-* | head -1)
# Warm the JIT cache once, so that the parallel loops don't all compile.
timeout 300 $B > $R/warm.log 2>&1; echo "warm rc=$? at $(( $(date +%s) - t0 )) s" >> $R/summary.txt
for k in 1 2 3 4; do
  bash scripts/gpu-catch-hang.sh $R/loop$k ${LOOP_S:-280} 20 $B > $R/loop$k.out 2>&1 &
done
wait
for k in 1 2 3 4; do echo "loop$k: $(tail -2 $R/loop$k/summary.txt | tr '\n' ' ')" >> $R/summary.txt; done
echo "loops done at $(( $(date +%s) - t0 )) s" >> $R/summary.txt
tar czf $OUT/s26c1.tgz -C /tmp s26c1
xz -dc .gpu-exp/bin/resident_diag.xz > /tmp/rd && chmod +x /tmp/rd; D=/tmp/rd
timeout 100 $D diag_same_kernel --exact --nocapture > $R/same.log 2>&1; echo "same rc=$? at $(( $(date +%s) - t0 )) s" >> $R/summary.txt
GTAP_TEST_CHILD=1 $D a_session_holds_up_no_other_runtime --exact --nocapture > $R/diff.log 2>&1 & pid=$!
t=0; while kill -0 $pid 2>/dev/null && [ $t -lt 300 ]; do sleep 0.1; t=$((t+1)); done
if kill -0 $pid 2>/dev/null; then
  echo "diff HUNG at $(( $(date +%s) - t0 )) s" >> $R/summary.txt
  timeout 60 /usr/local/cuda/bin/cuda-gdb -p $pid -batch -ex "set pagination off" -ex "thread apply all bt 25" -ex "info cuda kernels" > $R/diff-cudagdb.txt 2>&1
  nvidia-smi >> $R/diff-smi.txt 2>&1
  kill -9 $pid; wait $pid 2>/dev/null
else wait $pid; echo "diff rc=$? at $(( $(date +%s) - t0 )) s" >> $R/summary.txt; fi
tar czf $OUT/s26c1.tgz -C /tmp s26c1
tar czf $OUT/jitcache.tgz -C "$CUDA_CACHE_PATH" . ; ls -la $OUT >> $R/summary.txt
cat $R/summary.txt
