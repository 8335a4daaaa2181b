#!/usr/bin/env bash
# Runs everything scripts/gpu-build.sh put in .gpu-bin/, on a GPU machine without Rust.
# GPU tests fail instead of skipping here (GTAP_REQUIRE_GPU=1). Logs go to $OUT when set.
#
# A watchdog limits each binary to GTAP_WATCHDOG_S seconds (default 300): one that has not
# ended by then is killed, reported on a FAILED line that names it, and the rest still run.
# (A kernel stuck inside a task keeps the GPU until its process ends; killing the process
# frees it for the next binary.)
#
# Usage (from the repository root): bash scripts/gpu-run.sh [test-name-filter]
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/jit-cache.sh
bin=.gpu-bin
log=${OUT:-/tmp}/gpu-run.log
limit=${GTAP_WATCHDOG_S:-300}
: >"$log"
export GTAP_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee -a "$log"
pass=0; fail=0; failed=()

# Runs one binary under the watchdog; counts and reports it.
run_one() {
  local exe=$1; shift
  echo "== $exe" | tee -a "$log"
  timeout --kill-after=10 "$limit" "$exe" "$@" >>"$log" 2>&1
  local rc=$?
  if [ $rc -eq 0 ]; then
    pass=$((pass+1))
  else
    fail=$((fail+1))
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
      failed+=("$exe (hung: still running after ${limit} s, killed by the watchdog)")
      echo "FAILED: $exe hung: still running after ${limit} s, killed by the watchdog" | tee -a "$log"
    else
      failed+=("$exe (exit $rc)")
    fi
  fi
}

for t in "$bin"/tests/*; do
  run_one "$t" ${1:+"$1"}
  grep -E '^test result:' "$log" | tail -1
done
for e in "$bin"/examples/*; do
  # The benchmark harness is not a test: run it on its own (see results/).
  case "$(basename "$e")" in bench) continue ;; esac
  run_one "$e"
  tail -3 "$log"
done
[ ${#failed[@]} -gt 0 ] && printf 'FAILED: %s\n' "${failed[@]}" | tee -a "$log"
echo "gpu-run: $pass passed, $fail failed" | tee -a "$log"
[ "$fail" -eq 0 ]
