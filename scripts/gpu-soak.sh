#!/usr/bin/env bash
# The soak run on a GPU machine: random fork-join programs (thread tasks only, and mixed with
# block tasks) and block programs across launch shapes, EPAQ queue counts and orders, top-up,
# inline resumes and the ablation schedulers for SECONDS (default 480), every result checked
# (tests/tests/soak_gpu.rs), from binaries that scripts/gpu-build.sh put in .gpu-bin/. The last
# line counts programs, tasks, wrong answers and hangs. The log goes to $OUT (or /tmp) as soak.log.
# Usage (from the repository root): bash scripts/gpu-soak.sh [SECONDS]
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jit-cache.sh
secs=${1:-480}
log=${OUT:-/tmp}/soak.log
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$log"
# The soak stops itself after SECONDS; the watchdog only catches a hang inside a run.
GTAP_REQUIRE_GPU=1 GTAP_SOAK_SECS=$secs timeout --kill-after=10 $((secs + 120)) \
  .gpu-bin/tests/soak_gpu-* --nocapture 2>&1 | tee -a "$log" | grep -E '^(soak:|WRONG|HANG|ERROR|test result)'
rc=${PIPESTATUS[0]}
[ "$rc" -eq 124 ] && echo "FAILED: the soak hung past its time and was killed" | tee -a "$log"
exit "$rc"
