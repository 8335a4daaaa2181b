#!/usr/bin/env bash
# Session 25, call 3: resident_gpu over and over until a run hangs (15 s); then the host
# threads' stacks (gdb) and the device's kernels and warps (cuda-gdb) of the hung process.
set -u
[ -x .gpu-bin/examples/bench ] || tar -xJf .gpu-bin/bundle.tar.xz -C .gpu-bin
R=/tmp/s25c3; rm -rf $R; mkdir -p $R
. scripts/jit-cache.sh
export GTAP_REQUIRE_GPU=1
B=$(ls .gpu-bin/tests/resident_gpu-* | head -1)
{ which gdb cuda-gdb; ls /usr/local/cuda*/bin/cuda-gdb; } > $R/tools.txt 2>&1
CG=$(which cuda-gdb 2>/dev/null || ls /usr/local/cuda*/bin/cuda-gdb 2>/dev/null | head -1)
timeout 200 $B --test-threads 1 > $R/warm.log 2>&1; echo "warm rc=$?" >> $R/summary.txt
end=$(( $(date +%s) + ${SECS:-300} ))
i=0
while [ $(date +%s) -lt $end ]; do
  i=$((i+1))
  $B > $R/run.log 2>&1 & pid=$!
  t=0; while kill -0 $pid 2>/dev/null && [ $t -lt 150 ]; do sleep 0.1; t=$((t+1)); done
  if kill -0 $pid 2>/dev/null; then
    echo "$i HUNG pid=$pid" >> $R/summary.txt
    cp $R/run.log $R/hung.log
    ls /proc/$pid/task > $R/tids.txt
    for tid in $(ls /proc/$pid/task); do echo "== $tid $(cat /proc/$pid/task/$tid/comm) $(cat /proc/$pid/task/$tid/wchan 2>/dev/null)"; cat /proc/$pid/task/$tid/stack 2>/dev/null; done > $R/kstacks.txt 2>&1
    [ -n "$CG" ] && timeout 120 $CG -p $pid -batch -ex "set pagination off" -ex "thread apply all bt 25" -ex "info cuda contexts" -ex "info cuda kernels" -ex "info cuda blocks" -ex "info cuda warps" > $R/cudagdb.txt 2>&1
    nvidia-smi > $R/smi.txt 2>&1
    kill -9 $pid; wait $pid 2>/dev/null
    break
  fi
  wait $pid; rc=$?
  echo "$i rc=$rc" >> $R/summary.txt
  [ $rc -ne 0 ] && { cp $R/run.log $R/fail-$i.log; break; }
done
echo "runs=$i" >> $R/summary.txt
tar czf $OUT/s25c3.tgz -C /tmp s25c3
