#!/usr/bin/env bash
# Runs one test binary (or any command) over and over on the GPU machine until a run fails or
# hangs, to catch a hang that comes once in a hundred runs; on a hang it saves the hung
# process's host stacks and the device's kernels, blocks and warps with `cuda-gdb -p` before
# it kills it. Found resident_gpu's deadlock (results/2026-11-27-resident-hang-h100.md).
#
# Usage (from the repository root, after scripts/gpu-build.sh's bundle is unpacked):
#   bash scripts/gpu-catch-hang.sh DIR SECONDS HANG_S COMMAND [ARGS...]
#     DIR      where the logs go (summary.txt; on a hang hung.log and cuda-gdb.txt)
#     SECONDS  how long to keep starting runs
#     HANG_S   a run still going after this many seconds counts as hung (above the
#              command's normal time; the first run also compiles the PTX, so it is given
#              ten times as long)
# Exit status: 0 when every run passed, 1 when one failed, 2 when one hung.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 4 ] || { sed -n 2,14p "$0"; exit 64; }
dir=$1; secs=$2; hang=$3; shift 3
. scripts/jit-cache.sh
export GTAP_REQUIRE_GPU=1
mkdir -p "$dir"
: >"$dir/summary.txt"
cuda_gdb=$(command -v cuda-gdb || ls /usr/local/cuda*/bin/cuda-gdb 2>/dev/null | head -1)
end=$((SECONDS + secs))
run=0
while [ $SECONDS -lt $end ]; do
  run=$((run + 1))
  limit=$hang; [ $run -eq 1 ] && limit=$((hang * 10))
  "$@" >"$dir/run.log" 2>&1 &
  pid=$!
  started=$SECONDS
  while kill -0 $pid 2>/dev/null && [ $((SECONDS - started)) -lt "$limit" ]; do sleep 0.1; done
  if kill -0 $pid 2>/dev/null; then
    echo "run $run hung (still running after $limit s)" | tee -a "$dir/summary.txt"
    cp "$dir/run.log" "$dir/hung.log"
    if [ -n "$cuda_gdb" ]; then
      timeout 120 "$cuda_gdb" -p $pid -batch -ex "set pagination off" \
        -ex "thread apply all bt 30" -ex "info cuda kernels" -ex "info cuda blocks" \
        -ex "info cuda warps" >"$dir/cuda-gdb.txt" 2>&1
    else
      echo "no cuda-gdb: no stacks" | tee -a "$dir/summary.txt"
    fi
    kill -9 $pid
    wait $pid 2>/dev/null
    exit 2
  fi
  wait $pid
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "run $run failed (exit $rc)" | tee -a "$dir/summary.txt"
    cp "$dir/run.log" "$dir/failed.log"
    exit 1
  fi
done
echo "$run runs in $secs s, all passed" | tee -a "$dir/summary.txt"
